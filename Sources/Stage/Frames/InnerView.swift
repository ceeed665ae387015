import Game
import Media
import Prompter
import Render

/// What the inner display's console shows beyond the prompter, as values at the
/// frame's time: compared as part of the frame's input, so an equal view is not
/// drawn again.
package struct InnerView: Equatable {
    package var console: ConsoleState
    package var listing: LibraryListing
    /// The outer display's flags and mode (its flip counters are left out: they
    /// change with every outer frame and the console shows none of them).
    package var outer: DisplayStatus?
    package var cameraState: String?
    package var game: GameConsoleView = .none
    /// The timers line: elapsed, remaining, the end's clock time and the wall clock.
    package var timers: TimersShown?
    package var clips: InnerClips?
    /// Voice follow's heard words and confidence; nil when follow is off.
    package var follow: FollowShown?
    /// The title of the script a rename or move dialog is about.
    package var dialogScript: String?
    /// The network remote's pairing and phones, for the Settings screen (nil: remote off).
    package var remote: RemoteAccessShown?
    /// The hand controllers and their maps, for the Settings screen.
    package var controllers: ControllersShown?

    package init(console: ConsoleState, listing: LibraryListing, outer: DisplayStatus?, cameraState: String?,
                 game: GameConsoleView = .none, timers: TimersShown? = nil, follow: FollowShown? = nil,
                 dialogScript: String? = nil) {
        self.console = console
        self.listing = listing
        // A new status carries no flip counters: only what the console shows is compared.
        self.outer = outer.map {
            DisplayStatus(connector: $0.connector, connected: $0.connected, available: $0.available,
                          enabled: $0.enabled, mode: $0.mode)
        }
        self.cameraState = cameraState
        self.game = game
        self.timers = timers
        self.follow = follow
        self.dialogScript = dialogScript
    }
}
