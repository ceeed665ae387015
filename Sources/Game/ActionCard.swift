import Foundation

/// One card of the action catalog, as loaded and validated from `actions.json`.
///
/// `text` is the instruction without "Simon says", lower-case first (it follows
/// "Simon says, " when spoken), with `{fingers}` and `{hand}` where the card has those
/// parameters. `parameters` holds the card's default values and, by which are present,
/// which parameters it takes.
public struct ActionCard: Codable, Equatable, Hashable, Sendable, Identifiable {
    public var id: String
    public var version: Int
    public var group: ActionGroup
    public var text: String
    public var frame: FramingRegion
    public var framing: String
    public var seated: Bool
    public var parameters: ActionParameters

    public init(id: String, version: Int, group: ActionGroup, text: String, frame: FramingRegion,
                framing: String, seated: Bool, parameters: ActionParameters = ActionParameters()) {
        self.id = id
        self.version = version
        self.group = group
        self.text = text
        self.frame = frame
        self.framing = framing
        self.seated = seated
        self.parameters = parameters
    }

    /// The values one challenge uses: the host's choice where given, else the card's
    /// default. A value for a parameter the card does not take is a refusal, as is a
    /// finger count outside 1–5.
    public func resolve(_ chosen: ActionParameters) throws(GameRefusal) -> ActionParameters {
        var result = parameters
        if let fingers = chosen.fingers {
            guard parameters.fingers != nil else { throw .badParameter(card: id, "this card takes no finger count") }
            guard ActionParameters.fingerRange.contains(fingers) else {
                throw .badParameter(card: id, "the finger count must be 1 to 5, found \(fingers)")
            }
            result.fingers = fingers
        }
        if let hand = chosen.hand {
            guard parameters.hand != nil else { throw .badParameter(card: id, "this card takes no hand") }
            result.hand = hand
        }
        return result
    }

    /// The action as it will be said, parameters filled in, without "Simon says".
    public func instruction(_ values: ActionParameters) -> String {
        values.fill(text)
    }
}
