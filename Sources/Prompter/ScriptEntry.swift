import Markup
import Foundation

/// How a script file is written on disk.
public enum ScriptFormat: String, Codable, Sendable {
    case plainText = "txt"
    case markdown = "md"

    /// The format for a file extension, case-insensitively; nil for anything else.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "txt": self = .plainText
        case "md", "markdown": self = .markdown
        default: return nil
        }
    }
}

/// What reading a script file found. Bad files are never fatal: they are listed with
/// the reason instead.
public enum ScriptCondition: Sendable, Equatable {
    /// Read as is (an empty file is fine too).
    case ok
    /// Invalid UTF-8 was replaced with U+FFFD; the text is readable but not the original.
    case repaired
    /// Not text (it holds NUL bytes); skipped from the listing.
    case binary
    /// Bigger than the library's limit; refused.
    case tooLarge(size: Int, limit: Int)
    /// An imported document (.docx, .odt, .rtf, .pdf) whose converter is at work.
    case converting(tool: String)
    /// An imported document that has no text: its converter is missing, failed or hung.
    case cannotImport(String)

    /// Whether the script can be opened for reading.
    public var isReadable: Bool {
        switch self {
        case .ok, .repaired: return true
        case .binary, .tooLarge, .converting, .cannotImport: return false
        }
    }

    /// A sentence for the operator, nil when there is nothing to say.
    public var message: String? {
        switch self {
        case .ok: return nil
        case .repaired: return "Some bytes were not valid UTF-8 and show as \u{FFFD}."
        case .binary: return "Skipped: this is a binary file, not text."
        case .tooLarge(let size, let limit):
            return "Refused: the file is \(ByteCountText.format(size)), the limit is \(ByteCountText.format(limit))."
        case .converting(let tool): return "Converting with \(tool)…"
        case .cannotImport(let message): return message
        }
    }
}

/// One script file in the library, as listed.
public struct ScriptEntry: Sendable, Equatable, Identifiable {
    /// Path relative to the library root, e.g. "Talks/Keynote.md": stable while the file
    /// stays where it is, and what `ResumeState` stores.
    public var id: String
    /// File name without its extension.
    public var title: String
    /// The folder it lives in, nil at the top level.
    public var folder: String?
    public var format: ScriptFormat
    public var modified: Date
    /// Size on disk in bytes.
    public var size: Int
    /// Words of the reading text (Markdown markup does not count); 0 when unreadable.
    public var wordCount: Int
    public var condition: ScriptCondition
    /// The document format it was converted from (read-only), nil for .txt/.md.
    public var importedFrom: ScriptImportKind?

    public init(id: String, title: String, folder: String?, format: ScriptFormat, modified: Date,
                size: Int, wordCount: Int, condition: ScriptCondition, importedFrom: ScriptImportKind? = nil) {
        self.importedFrom = importedFrom
        self.id = id
        self.title = title
        self.folder = folder
        self.format = format
        self.modified = modified
        self.size = size
        self.wordCount = wordCount
        self.condition = condition
    }

    /// Invalid UTF-8 was replaced with U+FFFD when it was read.
    public var isRepaired: Bool { condition == .repaired }

    /// Why the file is not listed as a script (binary, too large), nil when it is.
    public var skipReason: String? { condition.isReadable ? nil : condition.message }
}

/// What the sidebar has selected.
public enum LibrarySelection: Sendable, Equatable, Hashable {
    /// Every readable script, in every folder and at the top level.
    case allScripts
    /// Scripts at the top level only (in no folder).
    case topLevel
    case folder(String)

    /// The sidebar's label.
    public var displayName: String {
        switch self {
        case .allScripts: return "All Scripts"
        case .topLevel: return "No Folder"
        case .folder(let name): return name
        }
    }
}

/// A script as opened for reading or editing.
public struct ScriptText: Sendable, Equatable {
    public var id: String
    /// The file's text as decoded (what the editor edits and `save` writes back).
    public var source: String
    /// What the talent reads: Markdown reduced to plain text, plain text as is.
    public var readingText: String
    public var format: ScriptFormat
    /// True when invalid UTF-8 was replaced; saving would store the replacement characters.
    public var repaired: Bool
    public var wordCount: Int
    /// The named markers in the text (headings, `>>` lines), in reading order.
    public var markers: [ScriptMarker] = []
    /// Emphasis, directions and highlights, as spans of `readingText`.
    public var markup: ReadingMarkup = .none
    /// The document format it was converted from; such a script is read-only.
    public var importedFrom: ScriptImportKind? = nil
}

/// "1.5 MB"-style sizes for messages.
enum ByteCountText {
    static func format(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        let kib = Double(bytes) / 1024
        if kib < 1024 { return String(format: "%.0f KB", kib) }
        return String(format: "%.1f MB", kib / 1024)
    }
}
