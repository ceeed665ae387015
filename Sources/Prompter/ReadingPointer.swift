/// Where the reading line sits on the talent's display (`[prompter] reading_line`):
/// `marker` keeps rig.toml's `marker_position`; the others put it a third of the way
/// down, in the middle, or two thirds down.
public enum ReadingLine: String, Codable, Sendable, CaseIterable {
    case marker, top, middle, bottom

    /// The fraction of the text viewport from its top, `configured` for `marker`.
    public func position(configured: Double) -> Double {
        switch self {
        case .marker: configured
        case .top: 1.0 / 3.0
        case .middle: 0.5
        case .bottom: 2.0 / 3.0
        }
    }
}

/// How the reading line is shown (`[prompter] pointer`): the faint band across the
/// text, the two arrows at its ends, both, or nothing.
public enum PointerStyle: String, Codable, Sendable, CaseIterable {
    case both, band, arrows, none

    public var showsBand: Bool { self == .both || self == .band }
    public var showsArrows: Bool { self == .both || self == .arrows }
}
