import Durable
import Foundation

/// Markers the operator set while prompting, per script, in the state folder
/// (`markers.json`), so they stay with the script without changing its text. Each
/// keeps a few words of the text it marks: an edit above it moves the offset, and
/// the words find the place again.
public final class MarkerStore {
    public static let defaultFileName = "markers.json"

    public struct Saved: Codable, Sendable, Equatable {
        public var textOffset: Int
        /// The first characters of the marked line, to find it again after an edit.
        public var context: String
    }

    public let file: JSONStateFile
    public private(set) var byScript: [String: [Saved]] = [:]
    public private(set) var problem: String?

    public init(directory: URL, fileName: String = MarkerStore.defaultFileName) {
        file = JSONStateFile(url: directory.appendingPathComponent(fileName))
        switch file.load(decode: { try JSONDecoder().decode([String: [Saved]].self, from: $0) }) {
        case .loaded(let value): byScript = value
        case .missing: break
        case .unreadable(let message): problem = message
        }
    }

    /// The operator's markers of `scriptID`, placed in `readingText` (context first,
    /// then the saved offset), unnamed, in reading order.
    public func markers(for scriptID: String, in readingText: String) -> [ScriptMarker] {
        let scalars = Array(readingText.unicodeScalars)
        return (byScript[scriptID] ?? []).map { saved in
            ScriptMarker(name: nil, textOffset: Self.locate(saved, in: scalars))
        }.sorted { $0.textOffset < $1.textOffset }
    }

    /// Adds a marker at `textOffset` (a line start) and saves at once.
    public func add(scriptID: String, textOffset: Int, readingText: String) throws(AtomicFileError) {
        let scalars = Array(readingText.unicodeScalars)
        let offset = min(max(0, textOffset), scalars.count)
        var list = byScript[scriptID] ?? []
        guard !list.contains(where: { $0.textOffset == offset }) else { return }
        list.append(Saved(textOffset: offset, context: Self.context(at: offset, in: scalars)))
        list.sort { $0.textOffset < $1.textOffset }
        byScript[scriptID] = list
        try file.save(byScript)
    }

    /// Removes the operator's markers of a script (`rig ctl marker clear`).
    public func clear(scriptID: String) throws(AtomicFileError) {
        guard byScript.removeValue(forKey: scriptID) != nil else { return }
        try file.save(byScript)
    }

    /// The script was renamed or moved: its markers follow it.
    public func move(from oldID: String, to newID: String) throws(AtomicFileError) {
        guard oldID != newID, let list = byScript.removeValue(forKey: oldID) else { return }
        byScript[newID] = list
        try file.save(byScript)
    }

    static let contextLength = 40

    static func context(at offset: Int, in scalars: [Unicode.Scalar]) -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[offset..<min(scalars.count, offset + contextLength)])
        return String(text)
    }

    /// The saved offset when the text there is unchanged, else the context's place
    /// nearest to it, else the saved offset clamped to the text.
    static func locate(_ saved: Saved, in scalars: [Unicode.Scalar]) -> Int {
        let offset = min(max(0, saved.textOffset), scalars.count)
        let wanted = Array(saved.context.unicodeScalars)
        guard !wanted.isEmpty, wanted.count <= scalars.count else { return offset }
        func matches(_ at: Int) -> Bool {
            at + wanted.count <= scalars.count && scalars[at..<(at + wanted.count)].elementsEqual(wanted)
        }
        if matches(offset) { return offset }
        var best: Int?
        for at in 0...(scalars.count - wanted.count) where matches(at) {
            if best.map({ abs($0 - offset) > abs(at - offset) }) ?? true { best = at }
        }
        return best ?? offset
    }
}
