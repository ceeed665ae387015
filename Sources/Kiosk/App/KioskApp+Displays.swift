import Render
import Stage

/// What the display side tells the kiosk: draw a frame, a display came or went or
/// changed mode, a frame reached the glass. The stage draws and decides; the kiosk
/// keeps the input side in step with the outer display.
extension KioskApp: DisplayBackendDelegate {
    func drawFrame(for role: DisplayRole, into target: FrameTarget) -> Bool {
        let changed = stage.frame(role, at: target.presentationTime, into: target).changed
        // The preview thread fits the next pictures to what this outer frame drew.
        if role == .outer { camera?.previewWanted(stage.outerPreviewTarget) }
        return changed
    }

    func displayStatusChanged(_ role: DisplayRole, _ status: DisplayStatus) {
        let before = stage.displays[role]
        if before?.available != status.available || before?.mode != status.mode {
            KioskLog.notice("\(role) display \(status.connector): \(status.available ? "available \(status.mode.map { "\($0)" } ?? "")" : "unavailable")")
        }
        if role == .outer {
            input?.isOuterPresented = status.showsContent && stage.controller.mode == .prompter
            windowInput?.isOuterPresented = status.showsContent && stage.controller.mode == .prompter
            if before?.mode != status.mode, let mode = status.mode {
                input?.update(outerMapping: touchMapping(width: mode.width, height: mode.height))
                windowInput?.update(outerWidth: Double(mode.width), outerHeight: Double(mode.height))
            }
        }
        stage.handle(.display(role, status))
    }

    /// A misnamed connector and the like: the operator reads it on the inner display.
    func displayProblem(_ problem: DisplaysError) {
        stage.handle(.problem(.displays.detail("\(problem)"), "displays: \(problem)"))
    }

    func framePresented(_ role: DisplayRole, _ stamp: FlipStamp) {
        stage.handle(.framePresented(role, stamp))
    }
}
