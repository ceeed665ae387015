/// Where a replay is in its clip, as a pure function of CLOCK_MONOTONIC time: the
/// position banked at the last play or pause plus the time played since, clamped to
/// the clip. No per-frame accumulator, so a late frame never shifts what follows
/// (the same rule as the prompter's scroll offset).
public struct ReplayClock: Equatable, Sendable {
    /// Seconds of the clip (its last picture's time, or the container's duration).
    public var duration: Double
    /// Monotonic time when playing last started; nil while paused.
    private var startedAt: Double?
    /// The clip position at `startedAt`, or where it is paused.
    private var bankedPosition: Double = 0

    public init(duration: Double) { self.duration = max(0, duration) }

    public func position(at time: Double) -> Double {
        guard let startedAt else { return bankedPosition }
        return min(duration, max(0, bankedPosition + (time - startedAt)))
    }

    /// Playing and not yet at the end.
    public func isPlaying(at time: Double) -> Bool { startedAt != nil && position(at: time) < duration }

    public func hasEnded(at time: Double) -> Bool { position(at: time) >= duration }

    /// Plays on from where it stands; a replay at its end starts again from the top.
    public mutating func play(at time: Double) {
        if hasEnded(at: time) { bankedPosition = 0 } else { bankedPosition = position(at: time) }
        startedAt = time
    }

    public mutating func pause(at time: Double) {
        bankedPosition = position(at: time)
        startedAt = nil
    }

    /// The sound's first sample, clip position `position`, reached the DAC at `time`:
    /// the clock follows the sound from there (the picture waits for it, as players
    /// slave video to the audio clock). Until `time` the position stands a little
    /// behind where it was, so the picture shown holds rather than jumps back.
    public mutating func anchor(position: Double, at time: Double) {
        guard startedAt != nil else { return }
        bankedPosition = min(max(0, position), duration)
        startedAt = time
    }

    /// The sound it follows went on `seconds` late: so does the clock (while playing).
    public mutating func delay(by seconds: Double) {
        guard let startedAt else { return }
        self.startedAt = startedAt + seconds
    }

    /// When the clip reaches `position` at this pace; nil while paused.
    public func time(ofPosition position: Double) -> Double? {
        startedAt.map { $0 + (position - bankedPosition) }
    }
}
