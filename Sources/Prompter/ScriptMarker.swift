import Foundation
import Markup

/// A place in a script the operator jumps to: a heading of a Markdown script, a line
/// starting with the marker sign `>>` in plain text (both named), or a place the
/// operator set while prompting (unnamed, kept in the state folder, not in the text).
public struct ScriptMarker: Sendable, Equatable, Codable {
    /// The heading's or marked line's text; nil for a marker the operator set.
    public var name: String?
    /// Unicode scalar offset in the reading text where the marked line starts.
    public var textOffset: Int

    public init(name: String?, textOffset: Int) {
        self.name = name
        self.textOffset = textOffset
    }

    /// The plain-text marker sign: a line whose first non-space characters are this is
    /// a marker named by the rest of the line, and the talent reads only the name.
    public static let plainTextSign = ">>"
}

/// The marker sign in plain-text scripts: each marked line stands alone (its own
/// paragraph, never joined to a neighbour by the line-break rule) and loses the sign.
enum PlainTextMarkers {
    static func convert(_ text: String, lineBreaks: LineBreaks, directions: DirectionMarks = .brackets)
        -> (text: String, markers: [ScriptMarker], markup: ReadingMarkup) {
        let (joined, markers) = convertLines(text, lineBreaks: lineBreaks)
        let (marked, moved) = PlainTextDirections.mark(joined, directions: directions)
        return (marked.text, markers.map { ScriptMarker(name: $0.name, textOffset: moved($0.textOffset)) },
                ReadingMarkup(spans: marked.spans))
    }

    private static func convertLines(_ text: String, lineBreaks: LineBreaks) -> (String, [ScriptMarker]) {
        var pieces: [String] = []
        var markers: [ScriptMarker] = []
        var chunk: [Substring] = []
        var offset = 0
        let isMarker = { (line: Substring) in
            line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix(ScriptMarker.plainTextSign)
        }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" })
        guard lines.contains(where: isMarker) else {
            return (PlainTextReadingText.convert(text, lineBreaks: lineBreaks), [])
        }
        // Whether the file is hard-wrapped is decided over the whole file, marker lines left out.
        let wrapWidth = lineBreaks == .auto
            ? PlainTextReadingText.hardWrapWidth(of: lines.filter { !isMarker($0) }.joined(separator: "\n")) : nil
        func flushChunk() {
            guard !chunk.isEmpty else { return }
            let piece = chunk.joined(separator: "\n")
            let converted = switch lineBreaks {
            case .auto: PlainTextReadingText.convert(piece, wrapWidth: wrapWidth)
            default: PlainTextReadingText.convert(piece, lineBreaks: lineBreaks)
            }
            pieces.append(converted)
            offset += converted.unicodeScalars.count + 1
            chunk = []
        }
        for line in lines {
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            guard trimmed.hasPrefix(ScriptMarker.plainTextSign) else {
                chunk.append(line)
                continue
            }
            flushChunk()
            var name = String(trimmed.dropFirst(ScriptMarker.plainTextSign.count))
            if name.hasSuffix("\r") { name.removeLast() }
            name = name.trimmingCharacters(in: .whitespaces)
            markers.append(ScriptMarker(name: name, textOffset: offset))
            pieces.append(name)
            offset += name.unicodeScalars.count + 1
        }
        flushChunk()
        return (pieces.joined(separator: "\n"), markers)
    }
}
