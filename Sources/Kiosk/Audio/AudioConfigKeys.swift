import Media
import Stage

/// rig.toml keys whose check needs the speech engine.
enum AudioConfigKeys {
    /// `audio.voice`: asks espeak-ng (through its one thread) whether the voice is
    /// installed, so `rig check` names the line of a misspelt voice.
    static func voice(_ path: String, _ at: WritableKeyPath<RigConfig, String>) -> ConfigKey {
        ConfigKey(path: path) { config, value in
            guard case let .scalar(.string(text)) = value, !text.isEmpty else {
                return "\(path) must name an espeak-ng voice such as \"en-us\", found \(value.kindName)"
            }
            let voices = SpeechSynthesizer.shared.voices()
            // No engine (espeak-ng-data missing): the kiosk says so when it speaks.
            if !voices.isEmpty && !voices.contains(where: { $0.language == text || $0.name == text || $0.identifier == text }) {
                let hint = Suggestion.closest(to: text, in: voices.map(\.language)).map { " (did you mean \"\($0)\"?)" } ?? ""
                return "\(path): espeak-ng has no voice \"\(text)\"\(hint); `rig speak --voices` lists them"
            }
            config[keyPath: at] = text
            return nil
        }
    }
}
