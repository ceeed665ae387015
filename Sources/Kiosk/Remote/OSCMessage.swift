import CLO
import Foundation
import Stage

/// One OSC message through liblo: decoded from a datagram, or built for feedback.
/// Owns its `lo_message`.
package final class OSCMessage {
    private let message: lo_message
    package let path: String

    /// Decodes a datagram; nil for anything liblo rejects (garbage, bundles).
    package init?(datagram: [UInt8]) {
        var bytes = datagram
        var result: Int32 = 0
        guard let decoded = lo_message_deserialise(&bytes, bytes.count, &result), result == 0 else { return nil }
        guard let path = lo_get_path(&bytes, bytes.count) else {
            lo_message_free(decoded)
            return nil
        }
        message = decoded
        self.path = String(cString: path)
    }

    package init(path: String) {
        // liblo returns NULL only when malloc does.
        guard let fresh = lo_message_new() else { fatalError("out of memory") }
        message = fresh
        self.path = path
    }

    deinit { lo_message_free(message) }

    /// Arguments as JSON: numbers, strings, true/false; others (blobs, MIDI) are null.
    package var arguments: [JSONValue] {
        let count = Int(lo_message_get_argc(message))
        guard count > 0, let types = lo_message_get_types(message), let argv = lo_message_get_argv(message) else { return [] }
        return (0..<count).map { index -> JSONValue in
            guard let pointer = argv[index] else { return .null }
            // Each argument is read at its own size: liblo's buffer holds 4 bytes for an
            // int32 or float at the end of a message, and `pointee` of the lo_arg union
            // would read 8 (the fuzz target osc found it: fuzz/regressions/osc). OSC pads
            // to 4 bytes, so 64-bit values need not be 8-byte aligned.
            let arg = UnsafeRawPointer(pointer)
            switch UInt8(bitPattern: types[index]) {
            case UInt8(ascii: "i"): return .int(Int(arg.loadUnaligned(as: Int32.self)))
            case UInt8(ascii: "h"): return .number(Double(arg.loadUnaligned(as: Int64.self)))
            case UInt8(ascii: "f"): return .number(Double(arg.loadUnaligned(as: Float.self)))
            case UInt8(ascii: "d"): return .number(arg.loadUnaligned(as: Double.self))
            case UInt8(ascii: "s"), UInt8(ascii: "S"):
                // The string starts where the argument does.
                return .string(String(cString: arg.assumingMemoryBound(to: CChar.self)))
            case UInt8(ascii: "T"): return .bool(true)
            case UInt8(ascii: "F"): return .bool(false)
            default: return .null
            }
        }
    }

    package func add(_ value: JSONValue) {
        switch value {
        case let .number(x) where x == x.rounded() && abs(x) < 2e9: lo_message_add_int32(message, Int32(x))
        case let .number(x): lo_message_add_float(message, Float(x))
        case let .string(text): lo_message_add_string(message, text)
        case let .bool(flag): lo_message_add_int32(message, flag ? 1 : 0)
        default: lo_message_add_string(message, "")
        }
    }

    /// The message as a datagram.
    package var datagram: [UInt8] {
        var size = 0
        guard let raw = lo_message_serialise(message, path, nil, &size) else { return [] }
        defer { free(raw) }
        return Array(UnsafeRawBufferPointer(start: raw, count: size))
    }
}
