import Foundation
import Stage

/// The kiosk's devices as `rig ctl status` reports them: the display backend's heads,
/// the camera feed's counters, the input devices (or the windows' input), the sound
/// service and the remote. Each is set when it opens; one that never did says "off".
final class KioskDeviceReport: DeviceReportPort {
    private let backend: any DisplayBackend
    private let config: RigConfig
    var camera: [String: JSONValue]? { cameraFeed.map(Self.fields) }
    weak var cameraFeed: CameraFeed?
    weak var inputDevices: InputDevices?
    weak var windowInput: WindowInput?
    weak var audio: AudioService?
    weak var remote: RemoteService?

    init(backend: any DisplayBackend, config: RigConfig) {
        self.backend = backend
        self.config = config
    }

    var displays: [DisplayRole: DisplayStatus] { backend.statuses }
    var cameraDevice: String { config.camera.device }

    var input: [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        if case let .object(own)? = inputDevices?.statusJSON ?? windowInput?.statusJSON { fields = own }
        fields["touch"] = .optional(inputDevices?.devices.first { $0.role == .outerTouchscreen }?.name)
        return fields
    }

    var sections: [String: JSONValue] {
        [
            "audio": audio?.statusJSON ?? [
                "output": ["device": .string(config.audio.output), "state": "off"],
                "input": ["device": .string(config.audio.input), "state": "off"],
            ],
            "remote": remote?.statusJSON ?? .null,
        ]
    }

    func hang() -> ControlReply {
        guard ProcessInfo.processInfo.environment["RIG_TEST_HANG_TRIGGER"] == "1" else {
            return .failure("hang is a test aid; start the kiosk with RIG_TEST_HANG_TRIGGER=1 to allow it")
        }
        KioskLog.warning("hanging the event loop on request (RIG_TEST_HANG_TRIGGER)")
        while true { pause() }
    }

    private static func fields(_ camera: CameraFeed) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        for (key, value) in camera.status.fields {
            fields[String(key.dropFirst("camera.".count))] = Double(value).map { .number($0) } ?? .string(value)
        }
        return fields
    }
}
