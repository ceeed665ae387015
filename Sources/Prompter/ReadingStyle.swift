/// Where each line sits in the column (`[prompter] align`). For a right-to-left script
/// left and right mirror, as its readers expect: `left` is where a line starts.
public enum ReadingAlignment: String, Codable, Sendable, CaseIterable {
    case left, centre, right
}

/// The reading font's weight (`[prompter] weight`), from the family's own faces: a
/// family without it uses the nearest installed face, and the Settings screen says so.
public enum ReadingWeight: String, Codable, Sendable, CaseIterable {
    case regular, medium, semibold, bold
}
