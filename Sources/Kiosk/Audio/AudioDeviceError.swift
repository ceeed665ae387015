import CALSA

/// Why a sound device could not be used. Names the device and says what ALSA said.
package enum AudioDeviceError: Error, Equatable, Sendable, CustomStringConvertible {
    case openFailed(device: String, code: Int32)
    case configureFailed(device: String, step: String, code: Int32)
    case disconnected(device: String)
    case ioFailed(device: String, call: String, code: Int32)
    case clipNotPlayable(String)
    /// Reported by the device's thread, already worded.
    case unavailable(String)

    package var description: String {
        switch self {
        case let .openFailed(device, code):
            if code == -ENOENT || code == -ENODEV {
                return "no sound device \"\(device)\" (\(Self.message(code))); is the card plugged in? `rig devices` lists them"
            }
            if code == -EBUSY { return "sound device \"\(device)\" is busy (another program has it open)" }
            return "cannot open sound device \"\(device)\": \(Self.message(code))"
        case let .configureFailed(device, step, code):
            return "sound device \"\(device)\" refused \(step): \(Self.message(code))"
        case let .disconnected(device):
            return "sound device \"\(device)\" disappeared (unplugged?)"
        case let .ioFailed(device, call, code):
            return "sound device \"\(device)\": \(call) failed: \(Self.message(code))"
        case let .clipNotPlayable(reason):
            return "cannot play the clip: \(reason)"
        case let .unavailable(reason):
            return reason
        }
    }

    package static func message(_ code: Int32) -> String {
        snd_strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }

    /// Errors after which the device is gone, not merely hiccuping.
    package static func meansGone(_ code: Int32) -> Bool {
        code == -ENODEV || code == -EBADFD || code == -ENOTTY || code == -EIO || code == -ESHUTDOWN
    }
}
