import CTOML
import Foundation
import Stage

/// One parsed TOML document: the only owner of a `rig_toml_document`.
/// Entries come in source order, each with its dotted path and place.
final class TOMLDocument {
    enum Value: Equatable {
        case table
        case array
        case string(String)
        case integer(Int64)
        case float(Double)
        case boolean(Bool)
        case dateTime(String)
    }

    struct Entry {
        let path: String
        let key: String
        let value: Value
        let line: Int
        let column: Int
        let parent: Int?
    }

    struct ParseError: Error {
        let message: String
        let line: Int
        let column: Int
    }

    private let handle: OpaquePointer
    let entries: [Entry]

    init(text: String, sourceName: String) throws(ParseError) {
        var error = [CChar](repeating: 0, count: 512)
        var line: UInt32 = 0
        var column: UInt32 = 0
        let length = text.utf8.count
        let parsed = text.withCString {
            rig_toml_parse($0, length, sourceName, &error, error.count, &line, &column)
        }
        guard let parsed else {
            let message = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ParseError(message: message, line: Int(line), column: Int(column))
        }
        handle = parsed
        entries = (0..<rig_toml_count(parsed)).compactMap { index in
            rig_toml_entry_at(parsed, index).map { Self.entry($0.pointee) }
        }
    }

    deinit { rig_toml_free(handle) }

    private static func entry(_ raw: rig_toml_entry) -> Entry {
        let value: Value
        switch raw.kind {
        case RIG_TOML_TABLE: value = .table
        case RIG_TOML_ARRAY: value = .array
        case RIG_TOML_STRING: value = .string(String(cString: raw.string))
        case RIG_TOML_INTEGER: value = .integer(raw.integer)
        case RIG_TOML_FLOAT: value = .float(raw.floating)
        case RIG_TOML_BOOLEAN: value = .boolean(raw.boolean)
        default: value = .dateTime(String(cString: raw.string))
        }
        return Entry(path: String(cString: raw.path), key: String(cString: raw.key), value: value,
                     line: Int(raw.line), column: Int(raw.column),
                     parent: raw.parent < 0 ? nil : Int(raw.parent))
    }
}
