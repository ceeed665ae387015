import Prompter
import Render

/// What the console screens read to build a frame: the console's own state and the
/// frame's input (`SceneInput`: the prompter and the rest as values at the frame's
/// time), with the drawings of pictures it names. Screens never change anything;
/// input goes through `ConsoleController`.
package struct ConsoleModel {
    package var state: ConsoleState
    package let prompter: PrompterShown
    /// The outer display as the display side reports it (nil before it is known).
    package let outer: DisplayStatus?
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
    /// The prompter's timers and the wall clock, as the timers line shows them.
    package var timers: TimersShown?
    /// Voice follow's line (heard words, confidence); nil when follow is off.
    package var follow: FollowShown?
    /// The recordings and the replay, for the Clips screen.
    package var clips: ClipsConsoleView = .none
    /// The title of the script a rename or move dialog is about.
    package var dialogScript: String?
    /// The network remote's pairing and phones (Settings screen); nil with the remote off.
    package var remote: RemoteAccessShown?
    /// The hand controllers and their maps (Settings screen).
    package var controllers: ControllersShown?

    package var progress: Double {
        guard prompter.maxOffset > 0 else { return 0 }
        return min(max(prompter.offset / prompter.maxOffset, 0), 1)
    }

    /// The outer display in the operator's words: seed 001's two flags kept apart.
    package var outerSummary: String {
        guard let outer, outer.available else { return "Unavailable" }
        if !outer.enabled { return "Available, turned off" }
        return prompter.blanked ? "Presenting (blanked)" : "Presenting"
    }

    /// The banner: recorded problems, then what is wrong with the rig right now.
    package var problems: [String] {
        var lines = prompter.problems
        if let outer, !outer.available {
            lines.append("Outer display \(outer.connector) is not connected: the talent sees nothing. Check its cable.")
        }
        if let cameraState, cameraState.hasPrefix("unavailable") {
            lines.append("Camera \(cameraState)")
        }
        return lines
    }

    package var transportName: String {
        switch prompter.state {
        case .playing: "Playing"
        case .paused: prompter.pausedByTap ? "Paused (tap on the outer display)" : "Paused"
        case .stopped: prompter.ended ? "Ended" : "Stopped"
        }
    }
}
