import Foundation
import JSON

/// The action library: the cards of `share/game/actions.json`, validated at load.
///
/// The file is `{"version": 1, "cards": [...]}`; each card has `id` (lower-case words
/// joined by `.` or `-`, stable across edits), `version` (an integer from 1, raised
/// when the card's meaning changes), `group`, `text`, `frame` (face, hands, upper-body,
/// full-body), `framing` (what the participant must keep in view), `seated` and
/// optionally `parameters` (`fingers` 1–5, `hand` left/right/either), whose keys must
/// match the `{fingers}`/`{hand}` placeholders in `text`. Unknown keys are errors, so a
/// misspelt field cannot silently fall back to a default.
public struct ActionCatalog: Equatable, Sendable {
    public static let formatVersion = 1

    public let cards: [ActionCard]

    /// Builds a catalog from cards already checked (tests, or a filtered copy).
    public init(cards: [ActionCard]) {
        self.cards = cards
    }

    /// Where an installed rig keeps the catalog (`scripts/install` copies it there).
    public static let installedURL = URL(fileURLWithPath: "/usr/share/rig/game/actions.json")

    public static func load(from url: URL) throws(CatalogError) -> ActionCatalog {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
        return try load(data)
    }

    public static func load(_ data: Data) throws(CatalogError) -> ActionCatalog {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw .notJSON(reason: Self.describe(error))
        }
        guard case .object(let top) = root else { throw .badTopLevel(reason: "expected an object, found \(root.kind)") }
        guard top["version"]?.intValue == formatVersion else {
            throw .badTopLevel(reason: "\"version\" must be \(formatVersion)")
        }
        guard case .array(let entries)? = top["cards"] else { throw .badTopLevel(reason: "\"cards\" must be a list") }
        var cards: [ActionCard] = []
        var seen = Set<String>()
        for (index, entry) in entries.enumerated() {
            let card = try CatalogCardParser.parse(entry, position: index + 1)
            guard seen.insert(card.id).inserted else { throw .duplicateID(card.id) }
            cards.append(card)
        }
        for group in ActionGroup.allCases where !cards.contains(where: { $0.group == group }) {
            throw .emptyGroup(group)
        }
        return ActionCatalog(cards: cards)
    }

    public func card(id: String) -> ActionCard? {
        cards.first { $0.id == id }
    }

    /// The cards the picker offers: groups in play and, with the seated filter, only
    /// cards a seated player can do. Catalog order within each group.
    public func available(groups: Set<ActionGroup>, seatedOnly: Bool) -> [ActionCard] {
        cards.filter { groups.contains($0.group) && (!seatedOnly || $0.seated) }
    }

    private static func describe(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            return (context.underlyingError as NSError?)?.localizedDescription ?? context.debugDescription
        }
        return (error as NSError).localizedDescription
    }
}
