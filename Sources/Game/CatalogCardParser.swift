import Foundation
import JSON

/// Turns one JSON entry of the catalog into an `ActionCard`, or an error naming the
/// card and the field.
enum CatalogCardParser {
    static let knownKeys: Set<String> = ["id", "version", "group", "text", "frame", "framing", "seated", "parameters"]
    static let placeholders = ["{fingers}", "{hand}"]

    static func parse(_ entry: JSONValue, position: Int) throws(CatalogError) -> ActionCard {
        let anonymous = "card \(position)"
        guard case .object(let fields) = entry else {
            throw .badCard(card: anonymous, field: "(card)", reason: "expected an object, found \(entry.kind)")
        }
        guard case .string(let rawID)? = fields["id"] else {
            throw .badCard(card: anonymous, field: "id", reason: "missing or not a string")
        }
        guard isValidID(rawID) else {
            throw .badCard(card: anonymous, field: "id",
                           reason: "\"\(rawID)\" is not lower-case letters and digits joined by . or -")
        }
        let name = rawID
        func fail(_ field: String, _ reason: String) -> CatalogError {
            .badCard(card: name, field: field, reason: reason)
        }
        if let unknown = fields.keys.sorted().first(where: { !knownKeys.contains($0) }) {
            throw fail(unknown, "unknown field")
        }
        guard let version = fields["version"]?.intValue, version >= 1 else {
            throw fail("version", "must be an integer from 1")
        }
        guard case .string(let groupName)? = fields["group"], let group = ActionGroup(rawValue: groupName) else {
            throw fail("group", "must be one of \(ActionGroup.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let text = try nonEmptyString(fields["text"], field: "text", fail: fail)
        guard case .string(let frameName)? = fields["frame"], let frame = FramingRegion(rawValue: frameName) else {
            throw fail("frame", "must be one of \(FramingRegion.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let framing = try nonEmptyString(fields["framing"], field: "framing", fail: fail)
        guard case .bool(let seated)? = fields["seated"] else { throw fail("seated", "must be true or false") }
        let parameters = try parseParameters(fields["parameters"], fail: fail)
        try checkPlaceholders(text, parameters, fail: fail)
        return ActionCard(id: name, version: version, group: group, text: text, frame: frame,
                          framing: framing, seated: seated, parameters: parameters)
    }

    static func isValidID(_ id: String) -> Bool {
        guard let first = id.first, let last = id.last, first.isLetter || first.isNumber,
              last.isLetter || last.isNumber else { return false }
        var previousSeparator = false
        for scalar in id.unicodeScalars {
            let separator = scalar == "." || scalar == "-"
            let plain = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            guard separator || plain, !(separator && previousSeparator) else { return false }
            previousSeparator = separator
        }
        return true
    }

    private static func nonEmptyString(_ value: JSONValue?, field: String,
                                       fail: (String, String) -> CatalogError) throws(CatalogError) -> String {
        guard case .string(let text)? = value else { throw fail(field, "missing or not a string") }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw fail(field, "must not be empty") }
        return trimmed
    }

    private static func parseParameters(_ value: JSONValue?,
                                        fail: (String, String) -> CatalogError) throws(CatalogError) -> ActionParameters {
        guard let value else { return ActionParameters() }
        guard case .object(let fields) = value else { throw fail("parameters", "must be an object") }
        var result = ActionParameters()
        for (key, entry) in fields.sorted(by: { $0.key < $1.key }) {
            switch (key, entry) {
            case ("fingers", _):
                guard let count = entry.intValue, ActionParameters.fingerRange.contains(count) else {
                    throw fail("parameters.fingers", "must be an integer from 1 to 5")
                }
                result.fingers = count
            case ("hand", .string(let name)):
                guard let hand = Hand(rawValue: name) else { throw fail("parameters.hand", "must be left, right or either") }
                result.hand = hand
            case ("hand", _):
                throw fail("parameters.hand", "must be left, right or either")
            default:
                throw fail("parameters.\(key)", "unknown parameter (a card takes fingers and hand)")
            }
        }
        return result
    }

    /// Every placeholder in the text has a parameter and every parameter is used, so a
    /// resolved instruction never says "{hand}" aloud.
    private static func checkPlaceholders(_ text: String, _ parameters: ActionParameters,
                                          fail: (String, String) -> CatalogError) throws(CatalogError) {
        var rest = text
        for placeholder in placeholders { rest = rest.replacingOccurrences(of: placeholder, with: "") }
        if rest.contains("{") || rest.contains("}") {
            throw fail("text", "has an unknown placeholder (a card knows {fingers} and {hand})")
        }
        let pairs: [(String, Bool)] = [("{fingers}", parameters.fingers != nil), ("{hand}", parameters.hand != nil)]
        for (placeholder, present) in pairs {
            let used = text.contains(placeholder)
            if used && !present { throw fail("text", "uses \(placeholder) but the card has no such parameter") }
            if present && !used { throw fail("parameters", "has a value for \(placeholder) that the text never uses") }
        }
    }
}
