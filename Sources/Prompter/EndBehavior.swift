/// What the prompter does when the end of the text reaches the reading line
/// (`[prompter] end_of_script` in rig.toml, the Settings screen).
public enum EndBehavior: String, Codable, Sendable, CaseIterable {
    /// Stops there (the text stays at its end; Play starts again from the top).
    case stop
    /// Glides back to the top and goes on at the same speed.
    case loop
    /// Stops and blanks the talent's display.
    case blank
}
