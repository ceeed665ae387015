import Foundation

/// One recording as the console lists it: what the kiosk read of its JSON. Stage
/// never reads the recordings folder; the kiosk hands these in (`StageEvent.clips`).
package struct ClipSummary: Equatable, Sendable {
    package var id: String
    /// "prompter" (a take) or "game" (an attempt); anything else is shown as it is.
    package var kind: String
    /// The script's title for a take.
    package var title: String?
    package var player: String?
    package var card: String?
    package var rule: String?
    package var verdict: String?
    /// The game the attempt belongs to, for the Current game list.
    package var game: String?
    package var duration: Double?
    package var recordedAt: Date
    /// False once retention (or a media-only delete) removed the MP4: listed, not replayable.
    package var hasMedia: Bool
    /// A Visual S/Z attempt's cue, which its replay shows; nil for takes, spoken play and
    /// a cue never shown.
    package var cue: ClipCue?
    /// Why a game clip's derived export (cue or narration) failed; nil unless it did.
    /// The Clips screen offers Retry export for it.
    package var exportFailure: String?

    package init(id: String, kind: String, title: String? = nil, player: String? = nil, card: String? = nil,
                 rule: String? = nil, verdict: String? = nil, game: String? = nil, duration: Double? = nil,
                 recordedAt: Date, hasMedia: Bool = true, cue: ClipCue? = nil, exportFailure: String? = nil) {
        self.id = id
        self.kind = kind
        self.title = title
        self.player = player
        self.card = card
        self.rule = rule
        self.verdict = verdict
        self.game = game
        self.duration = duration
        self.recordedAt = recordedAt
        self.hasMedia = hasMedia
        self.cue = cue
        self.exportFailure = exportFailure
    }

    /// The name a question uses ("Delete “Take 08:15”?").
    package var displayName: String {
        if kind == "game" { return [player, card].compactMap { $0 }.joined(separator: " · ").nonEmpty ?? id }
        return title?.nonEmpty ?? id
    }
}

/// A place a clip can be exported to: a mounted removable filesystem or the folder
/// of rig.toml's `[recording] export_folder`.
package struct ExportDestination: Equatable, Sendable {
    package enum Kind: String, Sendable { case removable, folder }
    package var name: String
    package var path: String
    package var kind: Kind
    /// Mounted read-only (a write-protected stick): listed, and an export to it is refused.
    package var readOnly: Bool
    /// A stick the rig mounted itself (under /run/media/rig): Eject unmounts it.
    package var ejectable: Bool

    package init(name: String, path: String, kind: Kind, readOnly: Bool = false, ejectable: Bool = false) {
        self.name = name
        self.path = path
        self.kind = kind
        self.readOnly = readOnly
        self.ejectable = ejectable
    }

    /// The stick's own name (its label, the mount point's last part), as `rig ctl media eject` takes it.
    package var label: String { (path as NSString).lastPathComponent }
}

/// How the last Eject of a USB stick is going: the console says when it is safe to pull.
package struct StickEjectProgress: Equatable, Sendable {
    package enum State: String, Sendable { case ejecting, safe, failed }
    /// The stick's name in the share sheet (its label).
    package var name: String
    package var state: State
    /// Why it failed.
    package var message: String?

    package init(name: String, state: State, message: String? = nil) {
        self.name = name
        self.state = state
        self.message = message
    }

    /// The console's line for it.
    package var line: String {
        switch state {
        case .ejecting: "Ejecting \(name)… do not pull it out yet"
        case .safe: "\(name) is ejected: safe to remove"
        case .failed: "\(name) was not ejected: \(message ?? "unknown error"). Do not pull it out yet."
        }
    }
}

/// How the last export from the console is going.
package struct ClipExportProgress: Equatable, Sendable {
    package enum State: String, Sendable { case copying, done, failed }
    package var id: String
    package var destination: String
    package var state: State
    /// 0…1 while copying, when the size is known.
    package var fraction: Double?
    package var message: String?

    package init(id: String, destination: String, state: State, fraction: Double? = nil, message: String? = nil) {
        self.id = id
        self.destination = destination
        self.state = state
        self.fraction = fraction
        self.message = message
    }
}

/// What the kiosk hands the stage of the recordings: the clips newest first, the
/// game they count as current, where they can be exported, the last export.
package struct ClipsInput: Equatable, Sendable {
    package var clips: [ClipSummary]
    package var currentGame: String?
    package var destinations: [ExportDestination]
    package var export: ClipExportProgress?
    /// The last Eject of a USB stick.
    package var eject: StickEjectProgress?
    /// Why clips cannot be shown (recording turned off, the folder unreadable).
    package var problem: String?

    package init(clips: [ClipSummary] = [], currentGame: String? = nil, destinations: [ExportDestination] = [],
                 export: ClipExportProgress? = nil, eject: StickEjectProgress? = nil, problem: String? = nil) {
        self.clips = clips
        self.currentGame = currentGame
        self.destinations = destinations
        self.export = export
        self.eject = eject
        self.problem = problem
    }

    package static let none = ClipsInput(problem: "Recording is turned off ([recording] enabled = false).")

    /// The Current game list: the attempts of the current game, newest first.
    package var currentGameClips: [ClipSummary] {
        guard let currentGame else { return [] }
        return clips.filter { $0.game == currentGame }
    }

    /// The clips of the list the operator chose, newest first.
    package func rows(_ list: ClipList) -> [ClipSummary] {
        list == .currentGame ? currentGameClips : clips
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
