import Foundation

/// What the host has picked for the next challenge and not yet sent. Never shown to the
/// participant.
public struct ChallengeSelection: Codable, Equatable, Sendable {
    public var cardID: String
    /// The host's values; a parameter left nil takes the card's default.
    public var parameters: ActionParameters
    public var rule: RuleChoice

    public init(cardID: String, parameters: ActionParameters = ActionParameters(), rule: RuleChoice = .draw) {
        self.cardID = cardID
        self.parameters = parameters
        self.rule = rule
    }
}
