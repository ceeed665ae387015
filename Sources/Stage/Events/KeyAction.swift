/// What an operator key (keyboard, presentation clicker, foot pedal) does on the rig.
/// Raw values are the action names of rig.toml's `[keys]` table.
package enum KeyAction: String, CaseIterable, Sendable, Hashable {
    case playPause = "play_pause"
    case faster
    case slower
    case stop
    case library
    case blank
    case fontLarger = "font_larger"
    case fontSmaller = "font_smaller"
    case mirror
    case flip
    case rotate
    case nextMarker = "next_marker"
    case previousMarker = "previous_marker"
    /// Sets an unnamed marker at the line on the reading line.
    case setMarker = "set_marker"
    /// Glides back to the start, playing or paused as it was.
    case toStart = "to_start"
    /// Starts a prompter take (after the countdown), or stops the one running.
    case record
    /// Voice follow on or off (the kiosk owns the listener).
    case follow
    /// A follower rig: take over here, or hand back to the lead.
    case followRig = "follow_rig"

    /// Only speed changes repeat while a key is held: a held Space must not
    /// toggle play and pause over and over, nor a held M flicker the mirror.
    package var repeatsWhileHeld: Bool { self == .faster || self == .slower }
}
