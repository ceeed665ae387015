import Prompter
import Stage

/// Reading settings changed by name, with rig.toml's keys (`prompter.mirror`), as
/// `rig ctl set` does: the value goes through the same schema as the file, so the
/// same words are accepted and the same messages come back.
enum ReadingSettingKeys {
    static let keys = ["prompter.font_family", "prompter.font_size", "prompter.line_spacing",
                       "prompter.margin", "prompter.text_color", "prompter.background_color",
                       "prompter.mirror", "prompter.flip", "prompter.rotation", "prompter.speed",
                       "prompter.countdown", "prompter.end_of_script", "prompter.outer_timer",
                       "prompter.reading_line", "prompter.pointer", "prompter.align", "prompter.weight",
                       "prompter.direction_color", "prompter.highlight_color"]

    /// Returns a message when the key or value is refused; `settings` is unchanged then.
    static func apply(key: String, value raw: String, to settings: inout ReadingSettings) -> String? {
        guard keys.contains(key), let schemaKey = ConfigSchema.key(key) else {
            let hint = Suggestion.closest(to: key, in: keys).map { " (did you mean \($0)?)" } ?? ""
            return "\(key) is not a reading setting\(hint); these are: \(keys.joined(separator: ", "))"
        }
        var config = RigConfig()
        config.prompter = RigConfig.Prompter(settings)
        if let message = schemaKey.apply(&config, ConfigLoader.parseValue(raw)) { return message }
        settings = ReadingSettings(config: config.prompter)
        return nil
    }
}

extension RigConfig.Prompter {
    /// The `[prompter]` values that describe these reading settings.
    init(_ settings: ReadingSettings) {
        self.init()
        fontFamily = settings.fontFamily.rawValue
        fontSize = settings.fontSize
        lineSpacing = settings.lineSpacing
        margin = Int(settings.margin.rounded())
        textColor = settings.textColor.rawValue
        backgroundColor = settings.backgroundColor.rawValue
        mirror = settings.mirror
        flip = settings.flip
        rotation = settings.rotation.rawValue
        speed = settings.speed
        countdown = settings.countdown
        endOfScript = settings.endOfScript.rawValue
        outerTimer = settings.outerTimer
        readingLine = settings.readingLine.rawValue
        pointer = settings.pointer.rawValue
        align = settings.alignment.rawValue
        weight = settings.weight.rawValue
        directionColor = settings.directionColor.rawValue
        highlightColor = settings.highlightColor.rawValue
    }
}
