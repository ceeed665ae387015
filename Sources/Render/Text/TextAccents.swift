/// The colours of marked reading text beside the text colour (issue 42): a
/// direction's glyphs, and the box behind highlighted words.
public struct TextAccents: Hashable, Sendable {
    public var direction: Color
    public var highlight: Color

    public init(direction: Color, highlight: Color) {
        self.direction = direction
        self.highlight = highlight
    }
}
