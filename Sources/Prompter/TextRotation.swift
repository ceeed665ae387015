/// Rotation of the reading text (never of the controls), clockwise in degrees.
public enum TextRotation: Int, Codable, Sendable, CaseIterable {
    case none = 0
    case quarter = 90
    case half = 180
    case threeQuarters = 270

    public var degrees: Int { rawValue }

    /// Any angle, snapped to the nearest quarter turn (−90 reads as 270, 100 as 90).
    public init(snapping degrees: Int) {
        let normalized = ((degrees % 360) + 360) % 360
        let quarter = Int((Double(normalized) / 90).rounded()) % 4
        self = TextRotation(rawValue: quarter * 90) ?? .none
    }

    /// True when lines run vertically on the glass (the column width is the screen height).
    public var isSideways: Bool { self == .quarter || self == .threeQuarters }

    /// The R key's cycle: 0, 90, 180, 270, 0.
    public var next: TextRotation {
        switch self {
        case .none: .quarter
        case .quarter: .half
        case .half: .threeQuarters
        case .threeQuarters: .none
        }
    }
}
