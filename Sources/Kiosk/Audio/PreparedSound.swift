import Media

/// Mono 16-bit PCM ready for the output: a speech clip, or any other sound.
package struct PreparedSound: Sendable {
    package let samples: [Int16]
    package let sampleRate: Int

    package init(samples: [Int16], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    package init(_ clip: SpeechClip) { self.init(samples: clip.samples, sampleRate: clip.sampleRate) }

    package var duration: Double { Double(samples.count) / Double(max(sampleRate, 1)) }
}
