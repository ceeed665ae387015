import Game
import Prompter
import Render

/// The operator console's screens, in the order of the tabs along its top.
package enum ConsoleScreen: String, CaseIterable, Sendable {
    case library, prompter, settings, editor, game, scoreboard, clips

    package var title: String {
        switch self {
        case .library: "Library"
        case .prompter: "Prompter"
        case .settings: "Settings"
        case .editor: "Editor"
        case .game: "Game"
        case .scoreboard: "Scoreboard"
        case .clips: "Clips"
        }
    }

    /// The game's destinations: moving between them keeps the game open.
    package var isGame: Bool { self == .game || self == .scoreboard }
}

/// A question the console asks before it acts, drawn over the screen; while one is
/// open only its own controls take input.
package enum ConsoleDialog: Equatable {
    case confirmDelete(id: String, title: String)
    case rename(id: String, text: String)
    case move(id: String)
    case newFolder(text: String)
    case renameFolder(name: String, text: String)
    /// Deleting a folder keeps its scripts: the question says how many move.
    case confirmDeleteFolder(name: String, scripts: Int)
    /// Deleting a clip removes its media and JSON for good.
    case confirmDeleteClip(id: String, title: String)
    /// The share sheet: where to export the clip.
    case exportClip(id: String, title: String)
    /// Ending the game, with the choice to delete its media (`media` attempts still
    /// have a video); the results and scores stay either way.
    case endGame(media: Int)
    /// Deleting the media of a game already ended.
    case deleteGameMedia(media: Int)
    /// The first start of a rig written from the disk image: a card, answered with OK.
    case firstRun(FirstRunCard)
    /// A newer rig on a USB stick, offered; then how its install goes.
    case rigUpdate(RigUpdateCard)

    /// A card about the rig itself, not the screen below: it stays when the screen changes
    /// (the kiosk opens the last script as it starts, after the card came).
    package var isAboutTheRig: Bool {
        switch self {
        case .firstRun, .rigUpdate: true
        default: false
        }
    }

    /// The text a dialog's field holds, if it has one.
    package var fieldText: String? {
        switch self {
        case let .rename(_, text), let .newFolder(text), let .renameFolder(_, text): text
        case .confirmDelete, .move, .confirmDeleteFolder, .confirmDeleteClip, .exportClip, .endGame, .deleteGameMedia,
             .firstRun, .rigUpdate: nil
        }
    }

    /// The dialog's name in `rig ctl status`.
    package var statusName: String {
        switch self {
        case .confirmDelete: "confirm_delete"
        case .rename: "rename"
        case .move: "move"
        case .newFolder: "new_folder"
        case .renameFolder: "rename_folder"
        case .confirmDeleteFolder: "confirm_delete_folder"
        case .confirmDeleteClip: "confirm_delete_clip"
        case .exportClip: "export_clip"
        case .endGame: "end_game"
        case .deleteGameMedia: "delete_game_media"
        case .firstRun: "first_run"
        case let .rigUpdate(card): card.statusName
        }
    }

    package func withFieldText(_ text: String) -> ConsoleDialog {
        switch self {
        case let .rename(id, _): .rename(id: id, text: text)
        case .newFolder: .newFolder(text: text)
        case let .renameFolder(name, _): .renameFolder(name: name, text: text)
        case .confirmDelete, .move, .confirmDeleteFolder, .confirmDeleteClip, .exportClip, .endGame, .deleteGameMedia,
             .firstRun, .rigUpdate: self
        }
    }
}

/// Everything the console shows that is not prompter state: which screen, what has
/// the focus, the library's sidebar choice and search, an open dialog, the editor.
/// Owned by the event loop with the rest of the app.
package struct ConsoleState: Equatable {
    package var screen: ConsoleScreen = .prompter
    package var focus: WidgetID?
    package var folder: LibrarySelection = .allScripts
    package var search = ""
    package var selectedScript: String?
    package var dialog: ConsoleDialog?
    package var editor: ScriptEditor?
    /// The outcome of the last library action ("Deleted “Intro”"), or why it failed.
    package var notice: String?
    /// Why Settings' Self-test did not start (the prompter playing, a take recording).
    package var selfTestRefusal: String?
    /// Where the mouse pointer is, once a mouse has moved; touch and keys hide it.
    package var pointer: PointerPosition?
    /// The slider being dragged with a held button or finger.
    package var dragging: WidgetID?
    /// The action group the Game screen's picker shows.
    package var gameGroup = ""
    /// Which part of the Game screen is shown: the dashboard, setup or consent.
    package var gamePage: GamePage = .dashboard
    /// The roster and settings the Setup page edits until the host starts a game
    /// with them (the roster of a game in play is fixed).
    package var gameDraft: GameSetup?
    /// The Clips screen's list and its selected clip.
    package var clipList: ClipList = .allSaved
    package var selectedClip: String?

    /// A held key repeats what moves or types; it never opens, confirms, deletes a
    /// script or leaves a screen twice.
    func repeats(_ press: KeyPress) -> Bool {
        let moving: Set<KeySymbol> = [.up, .down, .left, .right, .pageUp, .pageDown, .home, .end, .tab, .backspace]
        if let symbol = press.symbol, moving.contains(symbol) { return true }
        let typing = screen == .editor || screen == .library || dialog?.fieldText != nil
        if typing && press.text != nil && press.symbol != .enter { return true }
        return screen == .editor && dialog == nil && (press.symbol == .enter || press.symbol == .delete)
    }

    /// What `rig ctl status` reports of the console, for remote controls and tests.
    package var statusJSON: JSONValue {
        ["screen": .string(screen.rawValue), "focus": .optional(focus), "search": .string(search),
         "selected": .optional(selectedScript), "dialog": .optional(dialog?.statusName),
         "editing": .optional(editor?.scriptID)]
    }
}

/// The Game screen's pages, chosen along its top.
package enum GamePage: String, CaseIterable, Sendable {
    case dashboard, setup, consent

    package var title: String {
        switch self {
        case .dashboard: "Dashboard"
        case .setup: "Setup"
        case .consent: "Consent"
        }
    }
}

/// The Clips screen's two lists.
package enum ClipList: String, Equatable, Sendable {
    case currentGame = "game", allSaved = "all"
}

/// A point on the inner display, in its pixels.
package struct PointerPosition: Equatable {
    package var x: Double
    package var y: Double
}
