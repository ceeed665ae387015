import Foundation

/// Turns a script file's bytes into text without ever failing: scripts arrive from USB
/// sticks and scp in whatever state they are in. Package access: the fuzz targets
/// (Sources/Fuzz) feed it bytes directly.
package enum ScriptDecoder {
    package struct Decoded: Equatable {
        package var text: String
        package var condition: ScriptCondition
    }

    /// NUL bytes mark a binary file (the same test git and grep use); UTF-16 text with a
    /// byte-order mark is the one kind of text that legitimately contains them.
    package static func decode(_ data: Data) -> Decoded {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            return decodeUTF16(data)
        }
        if data.contains(0) {
            return Decoded(text: "", condition: .binary)
        }
        var bytes = data
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if let valid = String(validating: bytes, as: UTF8.self) {
            return Decoded(text: valid, condition: .ok)
        }
        return Decoded(text: String(decoding: bytes, as: UTF8.self), condition: .repaired)
    }

    private static func decodeUTF16(_ data: Data) -> Decoded {
        let bigEndian = data.first == 0xFE
        var units: [UInt16] = []
        units.reserveCapacity(data.count / 2)
        var index = data.startIndex + 2
        while index + 1 < data.endIndex {
            let a = UInt16(data[index]), b = UInt16(data[index + 1])
            units.append(bigEndian ? (a << 8 | b) : (b << 8 | a))
            index += 2
        }
        let oddByte = (data.count - 2) % 2 != 0
        var repaired = oddByte
        var text = ""
        text.unicodeScalars.reserveCapacity(units.count)
        var decoder = UTF16()
        var iterator = units.makeIterator()
        decodeLoop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
            case .error:
                repaired = true
                text.unicodeScalars.append("\u{FFFD}")
            case .emptyInput: break decodeLoop
            }
        }
        return Decoded(text: text, condition: repaired ? .repaired : .ok)
    }
}
