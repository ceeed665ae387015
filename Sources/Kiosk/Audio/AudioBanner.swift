/// What the operator's banner says of a sound device in a state: a line while it is
/// unavailable, none once it is ready again, and no change while it is starting.
enum AudioBanner {
    /// nil: leave the banner as it is; `.some(nil)`: the device is fine, its line goes.
    static func line(_ role: AudioService.Role, device: String, state: AudioDeviceState) -> String?? {
        switch state {
        case let .unavailable(reason):
            role == .output ? "Sound output \"\(device)\" unavailable: \(reason). Spoken instructions are silent until it is back."
                : "Microphone \"\(device)\" unavailable: \(reason)."
        case .ready: .some(nil)
        default: nil
        }
    }
}

extension AudioService {
    /// udevd's sound-card events, for the device threads' reopen (nil without udev:
    /// they retry on their interval alone).
    static func soundMonitor() -> UdevMonitor? { try? UdevMonitor(subsystem: "sound", source: .udev) }

    /// A sound device came (or changed): worth opening again.
    static func announcesSoundDevice(_ event: UdevMonitor.Event) -> Bool { ["add", "change"].contains(event.action) }
}
