import Foundation

/// A document format that is not text but can be imported: dropped into the scripts
/// folder, it is converted once by a Debian command-line tool and read from the cache
/// next to it (see `ScriptImportCache`). Imported scripts are read-only.
public enum ScriptImportKind: String, Sendable, CaseIterable {
    case docx, odt, rtf, pdf

    public init?(fileExtension: String) {
        self.init(rawValue: fileExtension.lowercased())
    }

    /// The converter's command name, looked up on the search path.
    public var tool: String {
        switch self {
        case .docx, .odt, .rtf: return "pandoc"
        case .pdf: return "pdftotext"
        }
    }

    /// The Debian package that ships `tool`, for the "install …" message.
    public var package: String {
        switch self {
        case .docx, .odt, .rtf: return "pandoc"
        case .pdf: return "poppler-utils"
        }
    }

    /// How the converted text is read: pandoc writes CommonMark, so the document's
    /// headings become Markdown headings and with them named markers; a PDF has no
    /// structure to keep, so its text is plain text with blank lines between paragraphs.
    public var readAs: ScriptFormat {
        self == .pdf ? .plainText : .markdown
    }

    /// The converter's arguments; it writes the text to standard output.
    func arguments(for source: String) -> [String] {
        switch self {
        case .docx, .odt, .rtf:
            // --wrap=none: one paragraph is one line, so plain text's line rules never
            // see pandoc's own 72-column wrapping. -raw_html: ODT's bookmarks would
            // otherwise arrive as `<span id="anchor"></span>` inside the headings.
            return ["--from", rawValue, "--to", "commonmark-raw_html", "--wrap=none", source]
        case .pdf:
            return ["-enc", "UTF-8", "-eol", "unix", source, "-"]
        }
    }

    /// The sentence for a file whose converter is not installed.
    public var missingToolMessage: String {
        "cannot read .\(rawValue): install \(package) (it provides \(tool))."
    }
}
