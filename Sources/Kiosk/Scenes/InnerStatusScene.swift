import Foundation
import Prompter
import Render

/// The operator's display until the full console arrives: a plain upright status
/// with the script title, transport state, speed and position. It never follows
/// the reading text's mirror, flip or rotation.
enum InnerStatusScene {
    static let background = Color(rgb: 0x15181d)
    static let titleColor = Color(rgb: 0xf2f2f2)
    static let detailColor = Color(rgb: 0xa8b0bb)

    static func layers(display: PixelSize, state: PrompterSceneState, at time: Double,
                       painter: GlyphPainter) -> [Layer] {
        let frame = PixelRect(size: display)
        let margin = max(8, display.width / 24)
        let titleSize = max(12, Double(display.height) / 16)
        let detailSize = max(10, Double(display.height) / 26)
        let width = display.width - 2 * margin
        let title = Label(state.scriptTitle.isEmpty ? "Untitled" : state.scriptTitle,
                          style: TextStyle(fontSize: titleSize, lineSpacing: 1.2),
                          x: margin, y: margin, color: titleColor, maxWidth: width, painter: painter)
        let details = Label(statusLines(state: state, at: time).joined(separator: "\n"),
                            style: TextStyle(fontSize: detailSize, lineSpacing: 1.4),
                            x: margin, y: margin + title.height + margin / 2, color: detailColor,
                            maxWidth: width, painter: painter)
        var layers: [Layer] = [.fill(frame, background), .label(title), .label(details)]
        if !state.problems.isEmpty {
            layers += problemBanner(state.problems, display: display, margin: margin, size: detailSize,
                                    painter: painter)
        }
        return layers
    }

    static let bannerColor = Color(rgb: 0x7a1f1f)
    static let bannerText = Color(rgb: 0xfff2f2)

    /// Problems across the bottom: never a crash or a blank screen, always a reason.
    static func problemBanner(_ problems: [String], display: PixelSize, margin: Int, size: Double,
                              painter: GlyphPainter) -> [Layer] {
        let shown = problems.suffix(6)
        let more = problems.count > shown.count ? ["… and \(problems.count - shown.count) more"] : []
        let text = (shown + more).joined(separator: "\n")
        let probe = Label(text, style: TextStyle(fontSize: size, lineSpacing: 1.3), x: margin, y: 0,
                          color: bannerText, maxWidth: display.width - 2 * margin, painter: painter)
        let height = min(display.height / 2, probe.height + margin)
        let top = display.height - height
        let label = Label(text, style: TextStyle(fontSize: size, lineSpacing: 1.3), x: margin, y: top + margin / 2,
                          color: bannerText, maxWidth: display.width - 2 * margin, painter: painter)
        return [.fill(PixelRect(x: 0, y: top, width: display.width, height: height), bannerColor), .label(label)]
    }

    static func statusLines(state: PrompterSceneState, at time: Double) -> [String] {
        let engine = state.engine
        let offset = engine.offset(at: time)
        // Only what the text transform cannot change: a quarter turn lays the text
        // out on another column, so totals and percentages would differ with it.
        let position = "Position: \(Int(offset.rounded())) px"
        return [
            "State: \(stateName(engine, at: time, pausedByTap: state.pausedByTap))"
                + (state.outerPresenting ? "" : "   (outer display not showing)"),
            "Speed: \(engine.speed) px/s",
            position,
        ]
    }

    static func stateName(_ engine: PrompterEngine, at time: Double, pausedByTap: Bool) -> String {
        switch engine.state(at: time) {
        case .playing: return "Playing"
        case .paused: return pausedByTap ? "Paused (tap on the outer display)" : "Paused"
        case .stopped: return engine.isEnded(at: time) ? "Ended" : "Stopped"
        }
    }
}
