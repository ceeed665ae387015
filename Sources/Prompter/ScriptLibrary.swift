import Foundation
import Markup

/// The script library: a directory of `.txt` and `.md` files, with folders as
/// subdirectories one level deep. The disk is the truth (scripts arrive by USB stick
/// or scp); this type lists it (`ScriptIndex`), reads it safely and edits it
/// (`ScriptFiles`), and is what the rest of the app talks to.
///
/// Owned by the event-loop thread; not thread-safe. Listing is cached per file by
/// modification time and size, so `refresh()` after an inotify wake-up re-reads only
/// what changed. Edit operations refresh the listing themselves.
public final class ScriptLibrary {
    /// 8 MiB: a 10,000-word script is about 60 KB; anything near this is not a script.
    public static let defaultMaxScriptBytes = 8 << 20

    public var root: URL { files.root }
    /// Files bigger than this are refused (listed as `.tooLarge`, not read).
    public var maxScriptBytes: Int
    /// What a plain-text file's single newlines mean (`[prompter] line_breaks`). Fixed
    /// for the library's life: cached reading texts and word counts depend on it.
    public let lineBreaks: LineBreaks
    /// Which brackets make directions (`[prompter] directions`); fixed like `lineBreaks`.
    public let directions: DirectionMarks

    /// Every `.txt`/`.md` file found by the last refresh, readable or not, in no order.
    public var entries: [ScriptEntry] { index.entries }

    /// A converter (pandoc, pdftotext) still running after this long is killed with its
    /// process group; it also gets as many seconds of CPU time.
    public static let defaultImportTimeout = 30.0
    /// Converts .docx/.odt/.rtf/.pdf files on its own thread (see ScriptImportListing).
    public let importer: ScriptImporter

    private let files: ScriptFiles
    private var index: ScriptIndex

    /// Opens the library, creating its directory when missing. `converterSearchPath`
    /// is where converters are looked for (the process's PATH when nil).
    public init(root: URL, maxScriptBytes: Int = ScriptLibrary.defaultMaxScriptBytes,
                lineBreaks: LineBreaks = .auto, directions: DirectionMarks = .brackets,
                importTimeout: Double = ScriptLibrary.defaultImportTimeout,
                converterSearchPath: String? = nil) throws(ScriptLibraryError) {
        files = ScriptFiles(root: root.standardizedFileURL)
        self.maxScriptBytes = maxScriptBytes
        self.lineBreaks = lineBreaks
        self.directions = directions
        let path = converterSearchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        importer = ScriptImporter(converter: ScriptConverter(searchPath: path, timeout: importTimeout),
                                  lineBreaks: lineBreaks, directions: directions)
        index = ScriptIndex(files: files, importer: importer, lineBreaks: lineBreaks, directions: directions)
        do {
            try FileManager.default.createDirectory(at: files.root, withIntermediateDirectories: true)
        } catch {
            throw .wrap(error, path: files.root, operation: "create the script library")
        }
        refresh()
    }

    // MARK: Listing

    /// Folder names, alphabetical (case-insensitive, numbers in numeric order).
    public func folders() -> [String] {
        index.folders()
    }

    /// Readable scripts in the selection, newest first.
    public func scripts(in selection: LibrarySelection = .allScripts) -> [ScriptEntry] {
        index.scripts(in: selection)
    }

    /// Files that were found but cannot be read (binary, too large), with their reason
    /// in `condition.message`, so the operator learns why a file does not show.
    public var skipped: [ScriptEntry] {
        index.skipped
    }

    public func entry(id: String) -> ScriptEntry? {
        index.entry(id: id)
    }

    /// Case-insensitive substring search over title and reading text, newest first.
    /// An empty query (after trimming) lists the whole selection.
    public func search(_ query: String, in selection: LibrarySelection = .allScripts) -> [ScriptEntry] {
        index.search(query, in: selection)
    }

    /// Re-reads the directory; only files whose stamp changed are read again.
    @discardableResult
    public func refresh() -> [ScriptEntry] {
        index.refresh(limit: maxScriptBytes)
        return entries
    }

    // MARK: Reading

    /// Opens a script from disk (not from the cache, so it is what is there now).
    /// Binary and oversized files throw with a message; invalid UTF-8 is repaired.
    public func readScript(id: String) throws(ScriptLibraryError) -> ScriptText {
        let url = try files.fileURL(for: id)
        if let kind = ScriptImportKind(fileExtension: url.pathExtension) {
            return try index.importedText(id: id, url: url, kind: kind, limit: maxScriptBytes)
        }
        guard let format = ScriptFormat(fileExtension: url.pathExtension) else { throw .notFound(id: id) }
        return try Self.read(url, id: id, format: format, maxBytes: maxScriptBytes, lineBreaks: lineBreaks,
                             directions: directions)
    }

    /// A script file outside any library (`rig snapshot --script FILE`), read the same
    /// way; its id is the path as given, and an unknown extension reads as plain text.
    public static func readScriptFile(_ url: URL, maxBytes: Int, lineBreaks: LineBreaks,
                                      directions: DirectionMarks = .brackets) throws(ScriptLibraryError) -> ScriptText {
        try read(url, id: url.path, format: ScriptFormat(fileExtension: url.pathExtension) ?? .plainText,
                 maxBytes: maxBytes, lineBreaks: lineBreaks, directions: directions)
    }

    private static func read(_ url: URL, id: String, format: ScriptFormat, maxBytes: Int, lineBreaks: LineBreaks,
                             directions: DirectionMarks) throws(ScriptLibraryError) -> ScriptText {
        guard let stamp = FileStamp(path: url.path) else { throw .notFound(id: id) }
        if stamp.size > maxBytes {
            throw .tooLarge(id: id, size: stamp.size, limit: maxBytes)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .wrap(error, path: url, operation: "read")
        }
        if data.count > maxBytes { throw .tooLarge(id: id, size: data.count, limit: maxBytes) }
        let decoded = ScriptDecoder.decode(data)
        if decoded.condition == .binary { throw .binary(id: id) }
        let (reading, markers, markup) = Self.readingTextAndMarkers(decoded.text, format: format,
                                                                    lineBreaks: lineBreaks, directions: directions)
        return ScriptText(id: id, source: decoded.text, readingText: reading, format: format,
                          repaired: decoded.condition == .repaired,
                          wordCount: ReadingTime.wordCount(reading, markup: markup), markers: markers, markup: markup)
    }

    /// What the talent reads, the operator's copy shows and word counts count: Markdown
    /// reduced to its text with CommonMark's line breaks, plain text with its line breaks
    /// as `lineBreaks` says. Every reader of a script gets its text from here.
    public static func readingText(_ source: String, format: ScriptFormat, lineBreaks: LineBreaks,
                                   directions: DirectionMarks = .brackets) -> String {
        readingTextAndMarkers(source, format: format, lineBreaks: lineBreaks, directions: directions).text
    }

    /// The reading text with the script's named markers: Markdown headings, plain-text
    /// lines starting with `ScriptMarker.plainTextSign`.
    public static func readingTextAndMarkers(_ source: String, format: ScriptFormat, lineBreaks: LineBreaks,
                                             directions: DirectionMarks = .brackets)
        -> (text: String, markers: [ScriptMarker], markup: ReadingMarkup) {
        switch format {
        case .markdown: MarkdownReadingText.convertMarkingHeadings(source, directions: directions)
        case .plainText: PlainTextMarkers.convert(source, lineBreaks: lineBreaks, directions: directions)
        }
    }

    // MARK: Editing
    // `ScriptFiles` does the work on the disk; each edit then refreshes the listing, so
    // the entry it returns is the one listed.

    /// A new script named "Untitled" ("Untitled 2", … when taken) in `folder`.
    @discardableResult
    public func createScript(in folder: String? = nil, text: String = "",
                             format: ScriptFormat = .plainText) throws(ScriptLibraryError) -> ScriptEntry {
        try refreshed(files.createScript(in: folder, text: text, format: format))
    }

    /// Saves edited text atomically (temp file, fsync, rename, fsync directory).
    @discardableResult
    public func save(id: String, text: String) throws(ScriptLibraryError) -> ScriptEntry {
        try files.save(id: id, text: text)
        return try refreshed(id)
    }

    /// Renames a script (its title is its file name; the extension stays).
    @discardableResult
    public func rename(id: String, to newTitle: String) throws(ScriptLibraryError) -> ScriptEntry {
        let title = try ScriptNaming.validated(newTitle)
        let current = try existingEntry(id)
        if title == current.title { return current }
        return try refreshed(files.rename(current, to: title))
    }

    /// Copies a script next to itself as "Demo copy", "Demo copy 2", …
    @discardableResult
    public func duplicate(id: String) throws(ScriptLibraryError) -> ScriptEntry {
        try refreshed(files.duplicate(existingEntry(id)))
    }

    /// Moves a script into `folder` (nil: the top level). A clashing name gets a number
    /// ("Demo 2") rather than failing, so a move never loses or blocks anything.
    @discardableResult
    public func move(id: String, toFolder folder: String?) throws(ScriptLibraryError) -> ScriptEntry {
        let current = try existingEntry(id)
        if current.folder == folder { return current }
        return try refreshed(files.move(current, toFolder: folder))
    }

    /// Deletes a script for good. This is the deletion itself: the UI must ask the
    /// operator to confirm before calling it.
    public func delete(id: String) throws(ScriptLibraryError) {
        try files.delete(existingEntry(id))
        refresh()
    }

    @discardableResult
    public func createFolder(named rawName: String) throws(ScriptLibraryError) -> String {
        let name = try files.createFolder(named: rawName)
        refresh()
        return name
    }

    /// A script that a folder operation moved: its id before, and its entry now.
    public struct MovedScript: Equatable, Sendable {
        public let oldID: String
        public let entry: ScriptEntry
    }

    /// A folder renamed: the name it now has (as validated) and the scripts in it, which
    /// moved with it, so whoever has one of them open follows it to its new id.
    public struct FolderRename: Equatable, Sendable {
        public let name: String
        public let moved: [MovedScript]
    }

    @discardableResult
    public func renameFolder(_ folder: String, to rawName: String) throws(ScriptLibraryError) -> FolderRename {
        let inFolder = scripts(in: .folder(folder)).map(\.id)
        let name = try files.renameFolder(folder, to: rawName)
        refresh()
        let moved = inFolder.compactMap { oldID in
            entry(id: name + "/" + String(oldID.dropFirst(folder.count + 1))).map { MovedScript(oldID: oldID, entry: $0) }
        }
        return FolderRename(name: name, moved: moved)
    }

    /// Deletes a folder but keeps everything in it: its scripts (and any other files)
    /// move to the top level, renamed "Demo 2" etc. when a name is taken there.
    /// Returns the moved scripts, each with the id it had, as they are now listed.
    @discardableResult
    public func deleteFolder(_ folder: String) throws(ScriptLibraryError) -> [MovedScript] {
        let movedIDs = try files.deleteFolder(folder)
        refresh()
        return movedIDs.compactMap { ids in entry(id: ids.new).map { MovedScript(oldID: ids.old, entry: $0) } }
    }

    private func refreshed(_ id: String) throws(ScriptLibraryError) -> ScriptEntry {
        refresh()
        guard let entry = entry(id: id) else { throw .notFound(id: id) }
        return entry
    }

    /// The listed entry for an id whose file is there, refreshing once when it is not
    /// listed yet (written since the last inotify wake-up).
    private func existingEntry(_ id: String) throws(ScriptLibraryError) -> ScriptEntry {
        let url = try files.fileURL(for: id)
        if FileStamp(path: url.path) == nil { throw .notFound(id: id) }
        if entry(id: id) == nil { refresh() }
        guard let entry = entry(id: id) else { throw .notFound(id: id) }
        return entry
    }
}
