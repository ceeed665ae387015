/// A control on the console by name: stable across frames, so focus and clicks
/// can refer to it although immediate-mode widgets are rebuilt every frame.
public typealias WidgetID = String

/// What a control does with input, as the last built frame laid it out.
public struct WidgetTarget: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Activated by a click, a tap, Enter or Space.
        case button
        /// Adjusted by Left/Right or a click along it; the value is a fraction 0…1.
        case slider
        /// A stepper row: Left/Right or a click on its left or right half step it.
        case stepper
        /// Takes typed text while focused.
        case textField
    }

    public let id: WidgetID
    public let rect: PixelRect
    public let kind: Kind
    /// Targets in the same group (the sidebar, the script list) are walked with
    /// Up and Down; Tab walks every target.
    public let group: String?

    public init(id: WidgetID, rect: PixelRect, kind: Kind, group: String? = nil) {
        self.id = id
        self.rect = rect
        self.kind = kind
        self.group = group
    }

    public func contains(x: Double, y: Double) -> Bool {
        x >= Double(rect.x) && x < Double(rect.maxX) && y >= Double(rect.y) && y < Double(rect.maxY)
    }

    /// Where along the control a point lies, 0 at its left edge and 1 at its right.
    public func fraction(atX x: Double) -> Double {
        guard rect.width > 1 else { return 0 }
        return min(max((x - Double(rect.x)) / Double(rect.width - 1), 0), 1)
    }
}

/// The targets of one built frame in focus order (the order they were drawn).
public struct WidgetTargets: Sendable, Equatable {
    public private(set) var all: [WidgetTarget] = []

    public init(_ targets: [WidgetTarget] = []) { all = targets }

    mutating func append(_ target: WidgetTarget) { all.append(target) }

    public subscript(id: WidgetID?) -> WidgetTarget? {
        guard let id else { return nil }
        return all.first { $0.id == id }
    }

    /// The topmost target under a point (dialogs are drawn last, so they win).
    public func target(atX x: Double, y: Double) -> WidgetTarget? {
        all.last { $0.contains(x: x, y: y) }
    }

    /// The next (or previous) target in focus order, wrapping around; the first one
    /// when nothing is focused yet.
    public func next(after id: WidgetID?, backwards: Bool = false) -> WidgetTarget? {
        guard !all.isEmpty else { return nil }
        guard let index = all.firstIndex(where: { $0.id == id }) else { return backwards ? all.last : all.first }
        let step = backwards ? all.count - 1 : 1
        return all[(index + step) % all.count]
    }

    /// The neighbour within the same group, without wrapping: Up at the top stays put.
    public func neighbour(of id: WidgetID?, backwards: Bool) -> WidgetTarget? {
        guard let current = self[id], let group = current.group else { return nil }
        let members = all.filter { $0.group == group }
        guard let index = members.firstIndex(where: { $0.id == current.id }) else { return nil }
        let next = backwards ? index - 1 : index + 1
        return members.indices.contains(next) ? members[next] : nil
    }

    public func first(inGroup group: String) -> WidgetTarget? { all.first { $0.group == group } }
}
