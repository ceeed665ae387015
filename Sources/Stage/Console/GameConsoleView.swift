import Game

/// What the console's Game screen reads of the game for one frame: a copy of the
/// session (the host's dashboard may show the pick; only the outer display may not),
/// the readiness reasons and warnings, the last refusal, and what the participant sees at the frame's
/// time.
package struct GameConsoleView: Equatable {
    package var session: GameSession?
    /// The session's revision (`GameController.sessionRevision`): what equality compares
    /// of it.
    package var sessionRevision = 0
    package var catalog: ActionCatalog?
    /// Why Send is refused now.
    package var readiness: [String]
    /// What the host should know that does not stop Send (the participant cannot stop).
    package var warnings: [String] = []
    package var notice: String?
    package var catalogProblem: String?
    /// What the participant sees at the frame's time, in the dashboard's words.
    package var participant: ParticipantPresentation?

    package static let none = GameConsoleView(session: nil, catalog: nil, readiness: [], notice: nil, catalogProblem: nil)

    package static func == (a: GameConsoleView, b: GameConsoleView) -> Bool {
        (a.session == nil) == (b.session == nil) && a.sessionRevision == b.sessionRevision && a.catalog == b.catalog
            && a.readiness == b.readiness && a.warnings == b.warnings && a.notice == b.notice && a.catalogProblem == b.catalogProblem
            && a.participant == b.participant
    }

    /// The cards in play, by group, as the picker lists them.
    package var cardsInPlay: [ActionCard] {
        guard let session, let catalog else { return [] }
        return catalog.available(groups: session.settings.groups, seatedOnly: session.settings.seatedOnly)
            .sorted { ($0.group, $0.id) < ($1.group, $1.id) }
    }
}
