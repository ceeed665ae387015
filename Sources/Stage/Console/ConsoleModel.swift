import Prompter
import Render

/// What the console screens read to build a frame: the console's own state and a
/// view of the app at the frame's time. Screens never change anything; input goes
/// through `ConsoleController`.
package struct ConsoleModel {
    package var state: ConsoleState
    package let controller: PrompterController
    package let time: Double
    /// The outer display as the display side reports it (nil before it is known).
    package let outer: DisplayStatus?
    /// Playing time since the script was opened, pauses excluded.
    package let elapsed: Double
    /// The camera's state in a few words ("streaming", "no camera"), nil with no camera configured.
    package let cameraState: String?
    /// The upright operator copy of the reading text, drawn into a rectangle.
    package let scriptPreview: (PixelRect) -> [Layer]
    /// The camera thumbnail fitted into a rectangle.
    package let cameraThumbnail: (PixelRect) -> [Layer]
    /// The participant view, drawn by the outer display's scene fitted into a
    /// rectangle (its shape kept): the layers and where they went.
    package var participantPreview: (PixelRect) -> (layers: [Layer], rect: PixelRect) = { ([], $0) }
    /// The scripts listed for the sidebar's choice and the search, the folders.
    package var listing: LibraryListing = .empty
    /// The game, for the Game screen.
    package var game: GameConsoleView = .none
    /// The take: the Record button's label and state.
    package var take: TakeShown = .none
    /// The prompter's timers and the wall clock (`OperatorTimers` draws them).
    package var timers: PrompterTimers?
    /// Voice follow's line (heard words, confidence); nil when follow is off.
    package var follow: FollowShown?
    /// The recordings and the replay, for the Clips screen.
    package var clips: ClipsConsoleView = .none

    package var engine: PrompterEngine { controller.engine }
    package var library: ScriptLibrary? { controller.library }

    /// Words per minute at the current speed, from the open script's words per pixel.
    package var wordsPerMinute: Int? {
        guard let script = controller.script, engine.maxOffset > 0 else { return nil }
        return Int((Double(engine.speed) * 60 * Double(script.wordCount) / engine.maxOffset).rounded())
    }

    package var progress: Double {
        guard engine.maxOffset > 0 else { return 0 }
        return min(max(engine.offset(at: time) / engine.maxOffset, 0), 1)
    }

    /// Seconds left to the end at the current speed.
    package var remaining: Double {
        guard engine.speed > 0 else { return 0 }
        return max(0, engine.maxOffset - engine.offset(at: time)) / Double(engine.speed)
    }

    /// The outer display in the operator's words: seed 001's two flags kept apart.
    package var outerSummary: String {
        guard let outer, outer.available else { return "Unavailable" }
        if !outer.enabled { return "Available, turned off" }
        return controller.blanked ? "Presenting (blanked)" : "Presenting"
    }

    /// The banner: recorded problems, then what is wrong with the rig right now.
    package var problems: [String] {
        var lines = controller.problems.lines
        if let outer, !outer.available {
            lines.append("Outer display \(outer.connector) is not connected: the talent sees nothing. Check its cable.")
        }
        if let cameraState, cameraState.hasPrefix("unavailable") {
            lines.append("Camera \(cameraState)")
        }
        return lines
    }

    package var transportName: String {
        switch engine.state(at: time) {
        case .playing: "Playing"
        case .paused: controller.pausedByTap ? "Paused (tap on the outer display)" : "Paused"
        case .stopped: engine.isEnded(at: time) ? "Ended" : "Stopped"
        }
    }
}
