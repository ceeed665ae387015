import Foundation

/// A JSON value as written, so the catalog loader can say which field of which card is
/// wrong (Codable's own errors name coding paths, not cards) and tell `true` from `1`.
enum JSONValue: Decodable, Equatable {
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let value = try? container.decode(Bool.self) { self = .bool(value); return }
        if let value = try? container.decode(Int.self) { self = .int(value); return }
        if let value = try? container.decode(Double.self) { self = .number(value); return }
        if let value = try? container.decode(String.self) { self = .string(value); return }
        if let value = try? container.decode([JSONValue].self) { self = .array(value); return }
        self = .object(try container.decode([String: JSONValue].self))
    }

    /// What a message calls this value's kind.
    var kind: String {
        switch self {
        case .bool: "a Boolean"
        case .int: "an integer"
        case .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        case .null: "null"
        }
    }
}
