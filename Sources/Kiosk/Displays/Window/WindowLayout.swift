import Stage

/// Where the two displays go on a desktop: one scale for both (so text reads at the
/// same size on each), at most 1, small enough that both windows fit side by side on
/// the screen's usable area. Pure arithmetic, unit-tested.
struct WindowLayout: Equatable, Sendable {
    struct Size: Equatable, Sendable {
        var width: Int
        var height: Int
    }

    /// Space left around and between the windows for the desktop's decorations.
    static let margin = 48

    let scale: Double

    /// `forced`: `rig run --window-scale`, used as given (tests pin it to 1).
    init(inner: Size, outer: Size?, screen: Size?, forced: Double? = nil) {
        if let forced {
            scale = forced
            return
        }
        guard let screen else {
            scale = 1
            return
        }
        let width = inner.width + (outer?.width ?? 0)
        let height = max(inner.height, outer?.height ?? 0)
        let gaps = outer == nil ? 2 : 3
        let across = Double(max(screen.width - gaps * Self.margin, 1)) / Double(max(width, 1))
        let down = Double(max(screen.height - 2 * Self.margin, 1)) / Double(max(height, 1))
        // Whole percent, rounded down, so the title's figure is the true one.
        scale = min(1, (min(across, down) * 100).rounded(.down) / 100)
    }

    func windowSize(for display: Size) -> Size {
        Size(width: max(1, Int((Double(display.width) * scale).rounded())),
             height: max(1, Int((Double(display.height) * scale).rounded())))
    }

    /// "inner (operator) — 1920×1080 at 50%": the window's title names the display,
    /// its size on the rig and how far it is scaled down; `note` adds a state
    /// ("no camera").
    static func title(_ role: DisplayRole, display: Size, scale: Double, note: String? = nil) -> String {
        let name = role == .inner ? "inner (operator)" : "outer (talent)"
        let percent = Int((scale * 100).rounded())
        return "\(name) — \(display.width)×\(display.height) at \(percent)%" + (note.map { " — \($0)" } ?? "")
    }
}

/// Where a display's picture sits inside its window (letterboxed when the window was
/// resized to another shape) and how window points map back onto display pixels.
struct WindowViewport: Equatable, Sendable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double
    /// The display's size in pixels.
    var display: WindowLayout.Size

    init(display: WindowLayout.Size, window: WindowLayout.Size) {
        self.display = display
        let scale = min(Double(window.width) / Double(max(display.width, 1)),
                        Double(window.height) / Double(max(display.height, 1)))
        width = (Double(display.width) * scale).rounded()
        height = (Double(display.height) * scale).rounded()
        x = ((Double(window.width) - width) / 2).rounded(.down)
        y = ((Double(window.height) - height) / 2).rounded(.down)
    }

    var scale: Double { width / Double(max(display.width, 1)) }

    /// The display pixel under a window point, clamped onto the display.
    func displayPoint(windowX: Double, windowY: Double) -> (x: Double, y: Double) {
        let px = (windowX - x) * Double(display.width) / max(width, 1)
        let py = (windowY - y) * Double(display.height) / max(height, 1)
        return (min(max(px, 0), Double(display.width - 1)), min(max(py, 0), Double(display.height - 1)))
    }
}
