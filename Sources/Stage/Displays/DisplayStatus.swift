/// What the kiosk knows about one display, for `rig ctl status`, the inner display's
/// status line and (later) the game's cue handshake.
package struct DisplayStatus: Equatable, Sendable {
    package var connector: String
    /// The connector reports a monitor.
    package var connected = false
    /// The system's side: present and modeset, so frames can be shown.
    package var available = false
    /// The operator's side: the toggle. Content shows only when available && enabled.
    package var enabled = true
    package var mode: VideoMode?
    package var flips: UInt64 = 0
    package var missedVblanks: UInt64 = 0
    package var lastFlip: FlipStamp?

    package var showsContent: Bool { available && enabled }

    package init(connector: String, connected: Bool = false, available: Bool = false, enabled: Bool = true,
                 mode: VideoMode? = nil) {
        self.connector = connector
        self.connected = connected
        self.available = available
        self.enabled = enabled
        self.mode = mode
    }
}

/// A completed flip: the kernel's vblank time (CLOCK_MONOTONIC seconds) and its
/// sequence, widened to 64 bits so it never wraps in the kiosk's lifetime.
package struct FlipStamp: Equatable, Sendable {
    package var time: Double
    package var sequence: UInt64

    package init(time: Double, sequence: UInt64) {
        self.time = time
        self.sequence = sequence
    }
}

extension DisplayStatus {
    /// A flat JSON object, so shell tests and `rig ctl` need no schema.
    package var json: String {
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
