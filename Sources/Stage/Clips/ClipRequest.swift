/// What the operator asked of the clips, for the kiosk to do: the stage owns no file
/// and no decoder. Each names the clip by id.
package enum ClipRequest: Equatable, Sendable {
    /// Start decoding for a replay (the kiosk takes a lease on the media).
    case openReplay(id: String)
    /// The replay plays on from `position` (clip seconds) at monotonic `time`: sound starts there.
    case replayPlaying(id: String, position: Double, time: Double)
    /// The replay paused: the sound stops.
    case replayPaused(id: String)
    /// The replay closed: decoder stopped, lease given back.
    case closeReplay(id: String)
    /// Pictures up to this clip position are wanted (position plus the lead).
    case replayWants(id: String, through: Double)
    /// Delete, after the operator confirmed.
    case delete(id: String)
    /// Export to the destination's path.
    case export(id: String, to: String)
    /// The Clips screen or the share sheet opened: read the clips and the mounts again.
    case refresh
}
