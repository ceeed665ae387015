/// The operator console's look: a dark theme with sizes derived from the inner
/// display's height, so text stays readable from two metres on any panel
/// (30 px body text at 1080 lines, never under 14 px).
public struct WidgetTheme: Sendable {
    public var background = Color(rgb: 0x15181d)
    public var panel = Color(rgb: 0x1f242c)
    public var control = Color(rgb: 0x2b323c)
    public var controlOn = Color(rgb: 0x2f6f4f)
    public var selected = Color(rgb: 0x33507a)
    public var danger = Color(rgb: 0x7a1f1f)
    public var text = Color(rgb: 0xf2f2f2)
    public var secondaryText = Color(rgb: 0xa8b0bb)
    /// The keyboard focus ring: the one thing on the console that is yellow.
    public var focus = Color(rgb: 0xffc23d)
    public var accent = Color(rgb: 0x4da3ff)

    /// Body text size in pixels.
    public let textSize: Double
    public let smallTextSize: Double
    public let titleSize: Double
    /// Row and button height.
    public let rowHeight: Int
    /// The gap between controls.
    public let gap: Int
    public let focusWidth: Int

    public init(displayHeight: Int) {
        let height = Double(max(displayHeight, 240))
        textSize = max(14, (height / 36).rounded())
        smallTextSize = max(12, (height / 46).rounded())
        titleSize = max(18, (height / 26).rounded())
        rowHeight = Int((textSize * 1.9).rounded())
        gap = max(4, Int((height / 90).rounded()))
        focusWidth = max(2, Int((height / 360).rounded()))
    }
}
