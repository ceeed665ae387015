import Media

/// The sound output as `AudioPlayback` drives it, modelled on the manual clock: one
/// mixer (the real `SoundMixer`) rendered in 10 ms periods `latency` ahead of the DAC,
/// whose frame f reaches the DAC at `origin + f / rate`. The stream starts with the
/// replay's sound at `start` (its prefill written at once), so the first sample plays
/// `latency` later; a start is reported (as the playback thread reports it, after five
/// status readings) 50 ms after its first period was written.
final class ModelledSoundOutput {
    let rate = 48_000
    let period = 480
    let latency: Double
    let origin: Double
    private(set) var mixer = SoundMixer(channels: 1)
    /// Every frame rendered so far; the index is the mixer's frame.
    private(set) var rendered: [Int16] = []
    private var reports: [(at: Double, id: Int, dac: Double)] = []
    private var nextID = 0

    init(latency: Double, at start: Double) {
        self.latency = latency
        origin = start + latency
    }

    func dacTime(frame: Int) -> Double { origin + Double(frame) / Double(rate) }

    func start(_ samples: [Int16]) -> Int {
        nextID += 1
        mixer.add(id: nextID, samples: samples, open: true)
        return nextID
    }

    /// Seconds the stream slipped (it had run dry), 0 when the samples came in time.
    func append(_ samples: [Int16], to id: Int) -> Double {
        Double(mixer.append(id: id, samples: samples) ?? 0) / Double(rate)
    }
    func finish(_ id: Int) { mixer.finish(id: id) }
    func cancel(_ id: Int) { _ = mixer.cancel(id: id) }

    /// Renders the periods written by `time` and returns the stream starts reported by
    /// then: (stream id, DAC time of its first sample).
    func advance(to time: Double) -> [(id: Int, dac: Double)] {
        while dacTime(frame: Int(mixer.position)) < time + latency {
            let writtenAt = dacTime(frame: Int(mixer.position)) - latency
            var block: [Int16] = []
            for case let .started(id, frame) in mixer.render(frames: period, into: &block) {
                reports.append((writtenAt + 0.05, id, dacTime(frame: Int(frame))))
            }
            rendered += block
        }
        let due = reports.filter { $0.at <= time }
        reports.removeAll { $0.at <= time }
        return due.map { ($0.id, $0.dac) }
    }

    /// The DAC time of the first sample louder than `threshold` (of full scale).
    func firstLoud(threshold: Double) -> Double? {
        let limit = Int16(threshold * 32767)
        return rendered.firstIndex { abs(Int($0)) > Int(limit) }.map { dacTime(frame: $0) }
    }
}
