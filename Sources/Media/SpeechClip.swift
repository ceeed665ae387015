/// A synthesized utterance, ready to play: mono 16-bit PCM with its rate, so its
/// duration is exact (the sample count, not an estimate), and where each word starts.
public struct SpeechClip: Sendable, Equatable {
    /// The text as spoken: after `SpeechText` cleaned it. Word offsets count its
    /// Unicode scalars.
    public let text: String
    public let voice: String
    /// Words per minute asked of the synthesizer.
    public let rate: Int
    public let sampleRate: Int
    public let samples: [Int16]
    public let words: [WordTiming]

    public init(text: String, voice: String, rate: Int, sampleRate: Int, samples: [Int16], words: [WordTiming]) {
        self.text = text
        self.voice = voice
        self.rate = rate
        self.sampleRate = sampleRate
        self.samples = samples
        self.words = words
    }

    /// Seconds of sound: the sample count over the rate.
    public var duration: Double { Double(samples.count) / Double(sampleRate) }

    /// The same clip at another sample rate (the output device's), words moved with it.
    public func resampled(to rate: Int) throws(ResamplerError) -> SpeechClip {
        guard rate != sampleRate else { return self }
        let converted = try Resampler(from: sampleRate, to: rate).convert(samples)
        let scale = Double(rate) / Double(sampleRate)
        let moved = words.map { word in
            WordTiming(word: word.word, characterOffset: word.characterOffset, characterCount: word.characterCount,
                       samplePosition: Int((Double(word.samplePosition) * scale).rounded()))
        }
        return SpeechClip(text: text, voice: voice, rate: self.rate, sampleRate: rate, samples: converted, words: moved)
    }
}

/// Where one word starts in a clip, from espeak-ng's WORD event.
public struct WordTiming: Sendable, Equatable {
    /// The word as it appears in `SpeechClip.text`.
    public let word: String
    /// Unicode scalars before the word in `SpeechClip.text` (0-based). espeak-ng counts
    /// characters, not UTF-8 bytes; the text is NFC, so a scalar is a character for
    /// the scripts it speaks.
    public let characterOffset: Int
    public let characterCount: Int
    /// The first sample of the word in `SpeechClip.samples`.
    public let samplePosition: Int

    public init(word: String, characterOffset: Int, characterCount: Int, samplePosition: Int) {
        self.word = word
        self.characterOffset = characterOffset
        self.characterCount = characterCount
        self.samplePosition = samplePosition
    }

    public func time(sampleRate: Int) -> Double { Double(samplePosition) / Double(sampleRate) }
}
