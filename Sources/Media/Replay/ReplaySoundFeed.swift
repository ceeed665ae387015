/// A replay's sound between the decoder and the output, on the loop: the pieces the
/// decoder sent ahead, kept from the replay's position on (not the whole soundtrack),
/// and what the output is told when playing starts at a position, when a piece
/// arrives while it plays, and when the sound is over. The output plays a stream
/// whose first sample is clip position `position`; when it reports that sample's DAC
/// time, the replay's clock is set from it, so picture and sound meet on the one clock.
public struct ReplaySoundFeed: Sendable {
    public enum Action: Equatable, Sendable {
        /// Start a stream: `samples` (at `sampleRate`) play from clip position `position` on.
        case start(position: Double, samples: [Int16], sampleRate: Int)
        /// More of the running stream, right after what it has.
        case append([Int16])
        /// The running stream has all its samples.
        case finish
    }

    /// Seconds kept behind the position, for a resume a moment back.
    public static let keptBehind = 0.1

    public private(set) var sampleRate: Int?
    /// Clip time of the first piece's first sample, and how many samples since it were
    /// forgotten: counted, not summed, so trimming never drifts.
    private var origin = 0.0
    private var forgotten = 0
    private var samples: [Int16] = []
    public private(set) var ended = false
    /// Where the running stream started; nil while no stream runs.
    public private(set) var playingFrom: Double?
    /// A play asked for before any sound had come.
    private var waiting: Double?

    public init() {}

    /// Clip time of the first sample kept.
    public var bufferStart: Double { origin + Double(forgotten) / Double(sampleRate ?? 1) }
    /// Clip time just after the last sample kept.
    public var bufferEnd: Double { bufferStart + Double(samples.count) / Double(sampleRate ?? 1) }
    public var bufferedSamples: Int { samples.count }

    /// A piece from the decoder (they join without gaps; a gap is filled with silence and
    /// an overlap dropped, so sample k stays at its time).
    public mutating func received(_ piece: ReplaySound) -> [Action] {
        var incoming = piece.samples
        if let sampleRate {
            let offset = Int(((piece.startTime - bufferEnd) * Double(sampleRate)).rounded())
            if offset > 0 { incoming = [Int16](repeating: 0, count: offset) + incoming }
            if offset < 0 { incoming = Array(incoming.dropFirst(min(-offset, incoming.count))) }
        } else {
            sampleRate = piece.sampleRate
            origin = piece.startTime
        }
        samples += incoming
        if playingFrom != nil { return incoming.isEmpty ? [] : [.append(incoming)] }
        if let waiting { return play(from: waiting) }
        return []
    }

    /// The decoder has handed the last piece.
    public mutating func soundEnded() -> [Action] {
        ended = true
        if playingFrom != nil { return [.finish] }
        if let waiting { return play(from: waiting) }
        return []
    }

    /// Playing starts (or resumes) at clip position `position`: a stream of what is
    /// kept from there on (silence first if the sound starts later), and the rest as it
    /// comes. Before any sound has come, the stream starts with the first piece.
    public mutating func play(from position: Double) -> [Action] {
        guard let sampleRate else {
            waiting = ended ? nil : position
            return []
        }
        waiting = nil
        playingFrom = position
        let skip = Int(((position - bufferStart) * Double(sampleRate)).rounded())
        let stream = skip >= 0 ? Array(samples.dropFirst(min(skip, samples.count)))
            : [Int16](repeating: 0, count: -skip) + samples
        return [.start(position: position, samples: stream, sampleRate: sampleRate)] + (ended ? [.finish] : [])
    }

    /// The replay paused (or closed): no stream runs; what is kept stays for a resume.
    public mutating func pause() {
        playingFrom = nil
        waiting = nil
    }

    /// Forgets the samples more than `keptBehind` before clip position `position`.
    public mutating func trim(before position: Double) {
        guard let sampleRate else { return }
        let drop = Int(((position - Self.keptBehind - bufferStart) * Double(sampleRate)).rounded(.down))
        guard drop > 0 else { return }
        let count = min(drop, samples.count)
        samples.removeFirst(count)
        forgotten += count
    }
}
