import Foundation

/// The rig's one JSON value: the control vocabulary's requests and replies, the status
/// report, and files read as written (the game's action catalog, whose messages name the
/// card and field and tell `true` from `1`). Typed, so a reply can't carry something
/// that won't serialize.
package enum JSONValue: Equatable, Sendable, Decodable, ExpressibleByDictionaryLiteral, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral, ExpressibleByArrayLiteral
{
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int) { self = .number(Double(value)) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(floatLiteral value: Double) { self = .number(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    package static func int(_ value: Int) -> JSONValue { .number(Double(value)) }
    package static func optional(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    package subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { return members[key] }
        return nil
    }

    /// Compact JSON with sorted keys, so the same state always prints the same text.
    package var serialized: String {
        switch self {
        case .null: return "null"
        case let .bool(flag): return flag ? "true" : "false"
        case let .number(x):
            guard x.isFinite else { return "null" }
            if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
            return String(x)
        case let .string(text): return Self.quote(text)
        case let .array(items): return "[" + items.map(\.serialized).joined(separator: ",") + "]"
        case let .object(members):
            let fields = members.keys.sorted().map { Self.quote($0) + ":" + (members[$0] ?? .null).serialized }
            return "{" + fields.joined(separator: ",") + "}"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    package static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Reads JSON text (requests, and `rig ctl` reading replies).
    package static func parse(_ data: Data) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: data)
    }

    package var stringValue: String? { if case let .string(s) = self { return s }; return nil }
    package var arrayValue: [JSONValue]? { if case let .array(items) = self { return items }; return nil }
    package var numberValue: Double? { if case let .number(x) = self { return x }; return nil }
    package var boolValue: Bool? { if case let .bool(b) = self { return b }; return nil }
    /// A number with no fraction, as an integer.
    package var intValue: Int? {
        guard case let .number(x) = self, x == x.rounded(), abs(x) < 1e15 else { return nil }
        return Int(x)
    }

    /// What a message calls this value's kind.
    package var kind: String {
        switch self {
        case .bool: "a Boolean"
        case let .number(x): x == x.rounded() ? "an integer" : "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        case .null: "null"
        }
    }
}

extension JSONValue {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let flag = try? container.decode(Bool.self) { self = .bool(flag) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let text = try? container.decode(String.self) { self = .string(text) }
        else if let items = try? container.decode([JSONValue].self) { self = .array(items) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }
}
