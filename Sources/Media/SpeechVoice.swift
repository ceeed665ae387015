/// An installed espeak-ng voice.
public struct SpeechVoice: Sendable, Equatable {
    /// espeak-ng's display name, e.g. "English_(America)".
    public let name: String
    /// The main language code, e.g. "en-us": what rig.toml's `audio.voice` names.
    public let language: String
    /// The voice file, e.g. "gmw/en-US".
    public let identifier: String
}
