/// Which brackets make a direction to the reader (`[prompter] directions`): text the
/// talent sees in the direction colour and does not say, left out of word counts,
/// reading times and voice follow. An escaped opening bracket (`\[`) is text.
public enum DirectionMarks: String, CaseIterable, Sendable {
    /// `[PAUSE]`, `[LOOK AT CAMERA 2]`.
    case brackets
    /// Brackets, and `(smile)` too: for scripts that write their directions that way.
    case parentheses = "brackets-and-parentheses"
    /// No directions: brackets are read as text.
    case off

    func opens(_ c: Character) -> Character? {
        switch (self, c) {
        case (.brackets, "["), (.parentheses, "["): "]"
        case (.parentheses, "("): ")"
        default: nil
        }
    }
}
