import Foundation

/// Why the action catalog could not be loaded. A broken card names the card (its id
/// when it has one, else its position) and the field.
public enum CatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case notJSON(reason: String)
    /// The top level is not `{"version": 1, "cards": [...]}`.
    case badTopLevel(reason: String)
    /// `card` is the card's id, or "card N" (1-based) when it has no usable id.
    case badCard(card: String, field: String, reason: String)
    case duplicateID(String)
    case emptyGroup(ActionGroup)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "The action catalog \(path) could not be read: \(reason)"
        case .notJSON(let reason): "The action catalog is not valid JSON: \(reason)"
        case .badTopLevel(let reason): "The action catalog is malformed: \(reason)"
        case .badCard(let card, let field, let reason): "Action card \(card), field \"\(field)\": \(reason)"
        case .duplicateID(let id): "Action card id \(id) is used by more than one card"
        case .emptyGroup(let group): "The action catalog has no card in the group \(group.title)"
        }
    }
}
