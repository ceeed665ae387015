/// One word the recogniser heard, with its place in the audio (seconds since the
/// listener's first sample; pocketsphinx's 10 ms frames).
public struct HeardWord: Sendable, Equatable {
    public let word: String
    public let start: Double
    public let end: Double

    public init(word: String, start: Double, end: Double) {
        self.word = word
        self.start = start
        self.end = end
    }
}

/// What the recogniser believes about the utterance in progress (or just finished):
/// its words so far. Each update replaces the previous one for the same utterance;
/// `final` is set once silence closed it.
public struct Hearing: Sendable, Equatable {
    public let utterance: Int
    public let words: [HeardWord]
    public let final: Bool
    /// Audio seconds processed when this was read.
    public let audioTime: Double

    public init(utterance: Int, words: [HeardWord], final: Bool, audioTime: Double) {
        self.utterance = utterance
        self.words = words
        self.final = final
        self.audioTime = audioTime
    }
}
