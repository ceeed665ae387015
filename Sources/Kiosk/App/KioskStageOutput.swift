import Stage

/// The stage's wishes carried to the kiosk's devices: frames to the display backend,
/// the outer display's enabled flag to it too, systemd's status line to the notifier,
/// a camera frame's flip time to the camera feed (its frame-to-flip latency), a change
/// of state to the network remote's live panels.
final class KioskStageOutput: StageOutput {
    private let backend: any DisplayBackend
    private let notifier: SystemdNotifier
    /// Set once the camera is open; frames shown before have nobody to tell.
    weak var camera: CameraFeed?
    /// Set when `[remote]` is on: its panels hear of every change of state.
    weak var remote: RemoteService?

    init(backend: any DisplayBackend, notifier: SystemdNotifier) {
        self.backend = backend
        self.notifier = notifier
    }

    func frameWanted(_ role: DisplayRole) { backend.requestFrame(role) }
    func frameWantedNow(_ role: DisplayRole) { backend.requestFrameNow(role) }
    func prepareFrame(_ role: DisplayRole, for time: Double) { backend.prepareFrame(role, for: time) }
    func outerEnabledChanged(_ on: Bool) { backend.setEnabled(on, for: .outer) }
    func cameraFrameShown(_ frame: CameraFrame, at time: Double) { camera?.presented(frame, flipTime: time) }
    func statusLineChanged(_ line: String) { notifier.status(line) }
    func liveStateChanged() { remote?.changed() }
}
