import Media

/// Mono 16-bit PCM ready for the output: a speech clip, or any other sound.
struct PreparedSound: Sendable {
    let samples: [Int16]
    let sampleRate: Int

    init(samples: [Int16], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    init(_ clip: SpeechClip) { self.init(samples: clip.samples, sampleRate: clip.sampleRate) }

    var duration: Double { Double(samples.count) / Double(max(sampleRate, 1)) }
}
