import Stage

/// `rig run --backend window`: the windows' input reaches the stage as a rig's input
/// devices' does, closing the inner window stops the kiosk, and the outer window's
/// title says when there is no camera.
extension KioskApp {
    func startWindowInput() {
        guard let backend = displaysBackend as? WindowBackend else { return }
        let inner = config.displays.inner.drawingSize(headless: config.displays)
        let outer = config.displays.outer.drawingSize(headless: config.displays)
        let innerSize = backend.status(of: .inner).mode.map { ($0.width, $0.height) } ?? (inner.width, inner.height)
        let outerSize = backend.status(of: .outer).mode.map { ($0.width, $0.height) } ?? (outer.width, outer.height)
        let configuration = InputConfiguration(config: config, outerWidth: Double(outerSize.0), outerHeight: Double(outerSize.1),
                                               innerWidth: Double(innerSize.0), innerHeight: Double(innerSize.1))
        let input = WindowInput(loop: loop, configuration: configuration) { [weak self] event in self?.handle(event) }
        windowInput = input
        stage.handle(.problem(.input.detail("keymap"), input.keymapProblem.map { "input: \($0)" }))
        backend.onInput = { [weak input] event in input?.handle(event) }
        backend.onQuit = { [weak self] in
            KioskLog.notice("stopping: the inner window was closed")
            self?.loop.stop()
        }
    }

    /// The camera's state as a word in the outer window's title; nil: no camera configured.
    func windowCameraChanged(_ state: CameraState?) {
        guard let backend = displaysBackend as? WindowBackend else { return }
        let note: String? = switch state {
        case .streaming?: nil
        case .starting?: "camera starting"
        default: "no camera"
        }
        backend.setNote(note, for: .outer)
    }
}
