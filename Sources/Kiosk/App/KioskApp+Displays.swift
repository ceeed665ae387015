import Render

/// What the display side tells the kiosk: draw a frame, a display came or went or
/// changed mode, a frame reached the glass.
extension KioskApp: DisplayBackendDelegate {
    func drawFrame(for role: DisplayRole, into target: FrameTarget) -> Bool {
        let inner = SceneRenderer.InnerView(console: console, outer: displaysBackend.status(of: .outer),
                                            elapsed: stopwatch.elapsed(at: target.presentationTime),
                                            cameraState: config.camera.enabled ? camera.map { "\($0.state)" } ?? "unavailable" : nil)
        let drew = renderer.draw(role, into: target, controller: controller,
                                 outerPresenting: displayStatus[.outer]?.showsContent ?? false, camera: cameraView,
                                 inner: inner)
        // Moving text that has not moved a whole pixel yet (the start of a ramp) gives
        // no new frame and so no flip to chain on: ask for the next vblank instead.
        if !drew && renderer.isAnimating(role, controller: controller, at: target.presentationTime) {
            displays.backend.requestFrame(role)
        }
        return drew
    }

    func displayStatusChanged(_ role: DisplayRole, _ status: DisplayStatus) {
        let before = displayStatus[role]
        displayStatus[role] = status
        if before?.available != status.available || before?.mode != status.mode {
            KioskLog.notice("\(role) display \(status.connector): \(status.available ? "available \(status.mode.map { "\($0)" } ?? "")" : "unavailable")")
        }
        if role == .outer {
            input?.isOuterPresented = status.showsContent && controller.mode == .prompter
            if before?.mode != status.mode, let mode = status.mode {
                input?.update(outerMapping: touchMapping(width: mode.width, height: mode.height))
                relayout()
            }
        }
        stateChanged()
    }

    /// A misnamed connector and the like: the operator reads it on the inner display.
    func displayProblem(_ problem: DisplaysError) {
        controller.addProblem("displays: \(problem)")
    }

    func framePresented(_ role: DisplayRole, _ stamp: FlipStamp) {
        if role == .outer, let frame = renderer.lastOuterCameraFrame {
            camera?.presented(frame, flipTime: stamp.time)
        }
        if role == .outer {
            tapLatency.outerFrameFlipped(at: stamp.time, showsTapEffect: renderer.lastOuterShowedTapPause)
        }
        if renderer.isAnimating(role, controller: controller, at: stamp.time) {
            displays.backend.requestFrame(role)
        } else if role == .outer {
            prepareAheadWhileIdle(pieces: 12)
        }
    }
}
