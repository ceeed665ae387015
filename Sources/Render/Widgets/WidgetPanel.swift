/// Immediate-mode widgets for the operator console. A screen calls these in drawing
/// order every time it is built, straight from the app state; the panel collects
/// the layers to compose and the targets that clicks, taps and the keyboard focus
/// refer to. There is no retained widget tree to keep in step with the state.
public final class WidgetPanel {
    public enum ButtonStyle: Sendable { case normal, primary, danger }

    public enum Alignment: Sendable { case leading, trailing }

    /// One column of a list row: text at `x` (from the row's left edge), at most `width` wide.
    public struct Column: Sendable {
        public var text: String
        public var x: Int
        public var width: Int
        public var alignment: Alignment
        public var secondary: Bool

        public init(_ text: String, x: Int, width: Int, alignment: Alignment = .leading, secondary: Bool = false) {
            self.text = text
            self.x = x
            self.width = width
            self.alignment = alignment
            self.secondary = secondary
        }
    }

    public let size: PixelSize
    public let theme: WidgetTheme
    public let labels: LabelCache
    public let focus: WidgetID?
    public private(set) var layers: [Layer] = []
    public private(set) var targets = WidgetTargets()

    public init(size: PixelSize, theme: WidgetTheme, labels: LabelCache, focus: WidgetID?) {
        self.size = size
        self.theme = theme
        self.labels = labels
        self.focus = focus
    }

    public var bounds: PixelRect { PixelRect(size: size) }

    public func fill(_ rect: PixelRect, _ color: Color) { layers.append(.fill(rect, color)) }

    public func add(_ more: [Layer]) { layers += more }

    public func style(size: Double? = nil) -> TextStyle {
        TextStyle(fontSize: size ?? theme.textSize, lineSpacing: 1.15)
    }

    /// Text with its top-left at (x, y); wrapped at `maxWidth`, or cut to one line
    /// with "…" when `singleLine`. Returns the height it took.
    @discardableResult
    public func text(_ string: String, x: Int, y: Int, size: Double? = nil, color: Color? = nil,
                     maxWidth: Int? = nil, singleLine: Bool = false) -> Int {
        let style = style(size: size)
        let lines = singleLine && maxWidth != nil
            ? labels.singleLine(string, style: style, maxWidth: maxWidth ?? 0)
            : labels.lines(string, style: style, maxWidth: maxWidth)
        let label = Label(lines: lines, x: x, y: y, color: color ?? theme.text, painter: labels.painter)
        if !lines.isEmpty { layers.append(.label(label)) }
        return label.height
    }

    /// Width of one line of text.
    public func width(of string: String, size: Double? = nil) -> Int {
        Int((labels.lines(string, style: style(size: size), maxWidth: nil).map(\.width).max() ?? 0).rounded(.up))
    }

    /// One line of text centred vertically in `rect`, at its left or right edge.
    public func text(_ string: String, in rect: PixelRect, alignment: Alignment = .leading, size: Double? = nil,
                     color: Color? = nil) {
        let style = style(size: size)
        let lines = labels.singleLine(string, style: style, maxWidth: max(1, rect.width))
        guard let line = lines.first else { return }
        let y = rect.y + Int(((Double(rect.height) - line.height) / 2).rounded())
        let x = alignment == .leading ? rect.x : rect.maxX - Int(line.width.rounded(.up))
        layers.append(.label(Label(lines: [line], x: x, y: y, color: color ?? theme.text, painter: labels.painter)))
    }

    /// A push button, or a toggle when `isOn` is given (lit while on).
    public func button(_ id: WidgetID, _ title: String, in rect: PixelRect, isOn: Bool? = nil,
                       style: ButtonStyle = .normal, group: String? = nil) {
        let color: Color = switch style {
        case .primary: theme.accent.mixed(with: theme.control, 0.45)
        case .danger: theme.danger
        case .normal: isOn == true ? theme.controlOn : theme.control
        }
        fill(rect, color)
        let titleWidth = width(of: title)
        let inner = PixelRect(x: rect.x + max(theme.gap, (rect.width - titleWidth) / 2), y: rect.y,
                              width: rect.width - 2 * theme.gap, height: rect.height)
        text(title, in: inner)
        target(WidgetTarget(id: id, rect: rect, kind: .button, group: group))
    }

    /// A row of a list; the selected row is highlighted whether or not it has the focus.
    public func row(_ id: WidgetID, in rect: PixelRect, selected: Bool, group: String?, columns: [Column]) {
        if selected { fill(rect, theme.selected) }
        self.columns(columns, in: rect)
        target(WidgetTarget(id: id, rect: rect, kind: .button, group: group))
    }

    /// Text in columns across `rect`, taking no input (a list's header).
    public func columns(_ columns: [Column], in rect: PixelRect) {
        for column in columns {
            let area = PixelRect(x: rect.x + column.x, y: rect.y, width: column.width, height: rect.height)
            text(column.text, in: area, alignment: column.alignment,
                 size: column.secondary ? theme.smallTextSize : nil,
                 color: column.secondary ? theme.secondaryText : theme.text)
        }
    }

    /// A horizontal slider: track, filled part and knob; the label sits on the track.
    public func slider(_ id: WidgetID, in rect: PixelRect, fraction: Double, label: String) {
        let clamped = min(max(fraction.isFinite ? fraction : 0, 0), 1)
        fill(rect, theme.control)
        let filled = Int((Double(rect.width) * clamped).rounded())
        fill(PixelRect(x: rect.x, y: rect.y, width: filled, height: rect.height), theme.accent.mixed(with: theme.control, 0.55))
        let knob = max(4, rect.height / 5)
        fill(PixelRect(x: rect.x + min(max(filled - knob / 2, 0), rect.width - knob), y: rect.y, width: knob,
                       height: rect.height), theme.text)
        // The label sits on the wider side of the knob, never under it.
        let knobX = rect.x + min(max(filled - knob / 2, 0), rect.width - knob)
        let labelArea = clamped < 0.5
            ? PixelRect(x: knobX + knob + theme.gap * 2, y: rect.y, width: rect.maxX - knobX - knob - theme.gap * 3,
                        height: rect.height)
            : PixelRect(x: rect.x + theme.gap * 2, y: rect.y, width: knobX - rect.x - theme.gap * 3, height: rect.height)
        text(label, in: labelArea, alignment: clamped < 0.5 ? .leading : .trailing)
        target(WidgetTarget(id: id, rect: rect, kind: .slider))
    }

    /// A setting stepped with Left and Right: "‹ value ›" at the right, the name at the left.
    public func stepper(_ id: WidgetID, in rect: PixelRect, label: String, value: String, swatch: Color? = nil,
                        group: String? = nil) {
        fill(rect, theme.panel)
        let pad = theme.gap * 2
        text(label, in: PixelRect(x: rect.x + pad, y: rect.y, width: rect.width / 2 - pad, height: rect.height))
        let valueArea = PixelRect(x: rect.x + rect.width / 2, y: rect.y, width: rect.width / 2 - pad, height: rect.height)
        text("‹", in: valueArea, color: theme.secondaryText)
        text("›", in: valueArea, alignment: .trailing, color: theme.secondaryText)
        var valueX = valueArea.x + pad * 2
        if let swatch {
            let side = rect.height / 2
            fill(PixelRect(x: valueX, y: rect.y + rect.height / 4, width: side, height: side), swatch)
            valueX += side + theme.gap * 2
        }
        text(value, in: PixelRect(x: valueX, y: rect.y, width: valueArea.maxX - pad * 2 - valueX, height: rect.height))
        target(WidgetTarget(id: id, rect: rect, kind: .stepper, group: group))
    }

    /// A one-line text entry; a caret shows at the end while it has the focus.
    public func textField(_ id: WidgetID, in rect: PixelRect, text value: String, placeholder: String) {
        fill(rect, theme.panel)
        let pad = theme.gap * 2
        let area = PixelRect(x: rect.x + pad, y: rect.y, width: rect.width - 2 * pad, height: rect.height)
        if value.isEmpty {
            text(placeholder, in: area, color: theme.secondaryText)
        } else {
            text(value, in: area)
        }
        if focus == id {
            let caretX = min(area.x + (value.isEmpty ? 0 : width(of: value)) + 2, area.maxX - 2)
            fill(PixelRect(x: caretX, y: rect.y + rect.height / 5, width: max(2, theme.focusWidth),
                           height: rect.height * 3 / 5), theme.text)
        }
        target(WidgetTarget(id: id, rect: rect, kind: .textField))
    }

    /// A dialog opens over what is drawn: the controls below it stop taking input.
    public func beginModal() { targets = WidgetTargets() }

    /// Registers a target drawn by hand, and rings it when it has the focus.
    public func target(_ target: WidgetTarget) {
        targets.append(target)
        if target.id == focus { focusRing(target.rect) }
    }

    /// Four bars just inside `rect`: visible on any fill, never hiding the label.
    public func focusRing(_ rect: PixelRect) {
        let w = theme.focusWidth
        fill(PixelRect(x: rect.x, y: rect.y, width: rect.width, height: w), theme.focus)
        fill(PixelRect(x: rect.x, y: rect.maxY - w, width: rect.width, height: w), theme.focus)
        fill(PixelRect(x: rect.x, y: rect.y, width: w, height: rect.height), theme.focus)
        fill(PixelRect(x: rect.maxX - w, y: rect.y, width: w, height: rect.height), theme.focus)
    }
}
