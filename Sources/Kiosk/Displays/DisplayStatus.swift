/// What the kiosk knows about one display, for `rig ctl status`, the inner display's
/// status line and (later) the game's cue handshake.
struct DisplayStatus: Equatable, Sendable {
    var connector: String
    /// The connector reports a monitor.
    var connected = false
    /// The system's side: present and modeset, so frames can be shown.
    var available = false
    /// The operator's side: the toggle. Content shows only when available && enabled.
    var enabled = true
    var mode: VideoMode?
    var flips: UInt64 = 0
    var missedVblanks: UInt64 = 0
    var lastFlip: FlipStamp?

    var showsContent: Bool { available && enabled }
}

/// A completed flip: the kernel's vblank time (CLOCK_MONOTONIC seconds) and its
/// sequence, widened to 64 bits so it never wraps in the kiosk's lifetime.
struct FlipStamp: Equatable, Sendable {
    var time: Double
    var sequence: UInt64
}

extension DisplayStatus {
    /// A flat JSON object, so shell tests and `rig ctl` need no schema.
    var json: String {
        var fields = [
            "\"connector\":\"\(connector)\"",
            "\"connected\":\(connected)",
            "\"available\":\(available)",
            "\"enabled\":\(enabled)",
            "\"flips\":\(flips)",
            "\"missed_vblanks\":\(missedVblanks)",
        ]
        if let mode {
            fields.append("\"mode\":\"\(mode)\"")
            fields.append("\"width\":\(mode.width),\"height\":\(mode.height)")
        }
        if let lastFlip {
            fields.append("\"last_flip_time\":\(lastFlip.time),\"last_flip_sequence\":\(lastFlip.sequence)")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
}
