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
        return [.fill(frame, background), .label(title), .label(details)]
    }

    static func statusLines(state: PrompterSceneState, at time: Double) -> [String] {
        let engine = state.engine
        let offset = engine.offset(at: time)
        // Only what the text transform cannot change: a quarter turn lays the text
        // out on another column, so totals and percentages would differ with it.
        let position = "Position: \(Int(offset.rounded())) px"
        return [
            "State: \(stateName(engine, at: time, pausedByTap: state.pausedByTap))",
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
