import Game

/// What the console's Game screen reads of the game for one frame: a copy of the
/// session (the host's dashboard may show the pick; only the outer display may not),
/// the readiness reasons and the last refusal.
package struct GameConsoleView {
    package var session: GameSession?
    package var catalog: ActionCatalog?
    package var readiness: [String]
    package var notice: String?
    package var catalogProblem: String?

    package static let none = GameConsoleView(session: nil, catalog: nil, readiness: [], notice: nil, catalogProblem: nil)

    /// The cards in play, by group, as the picker lists them.
    package var cardsInPlay: [ActionCard] {
        guard let session, let catalog else { return [] }
        return catalog.available(groups: session.settings.groups, seatedOnly: session.settings.seatedOnly)
            .sorted { ($0.group, $0.id) < ($1.group, $1.id) }
    }
}
