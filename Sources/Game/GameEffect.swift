import Foundation

/// What the game asks the rig to do. The game never calls out; the Stage carries these
/// out in order and reports results back as `GameEvent`s with the same generation.
public enum GameEffect: Equatable, Sendable {
    /// Synthesize the instruction (espeak-ng at that speed); answer `speechPrepared`.
    case synthesizeSpeech(generation: UInt64, text: String, wordsPerMinute: Int)
    /// Start recording attempt `attempt`; report accepted media with `mediaAccepted`.
    case startRecording(generation: UInt64, attempt: Int)
    /// Play the prepared speech; answer `speechFinished`.
    case playSpeech(generation: UInt64)
    /// Compose the letter into the participant view; report each flip with `cuePresented`.
    case showCue(generation: UInt64, cue: UInt64, letter: CueLetter, duration: Double)
    case hideCue(generation: UInt64, cue: UInt64)
    /// Stop and finalize the recording; answer `recordingFinalized` or `recordingFailed`.
    case stopRecording(generation: UInt64)
    /// Stop everything of that attempt at once: speech, cue, recording.
    case cancel(generation: UInt64)
    /// Remove the incomplete media of an interrupted attempt (also a file finalized late).
    case discardMedia(attempt: Int)
    /// The host deleted this attempt's video; its result stays.
    case deleteMedia(attempt: Int, file: String)
    /// The session changed in a way a restart must keep: write `GameSession.saved`.
    case save
}
