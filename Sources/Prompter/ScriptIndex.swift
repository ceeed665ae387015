import Foundation

/// The library's listing: every script file and imported document found by the last
/// refresh, readable or not, and the search over them. Cached per file by modification
/// time, size and inode, so `refresh` after an inotify wake-up re-reads only what changed.
struct ScriptIndex {
    struct Cached {
        var entry: ScriptEntry
        var stamp: FileStamp
        var readingText: String
        /// An imported document as the importer read it (nil while it converts, when it
        /// was refused, and for .txt/.md): `importedText` returns it.
        var imported: ScriptText? = nil
        /// The `maxScriptBytes` an imported document was converted and judged under.
        var importLimit: Int? = nil
    }

    private let files: ScriptFiles
    private let imports: ScriptImportListing
    private let lineBreaks: LineBreaks
    private let directions: DirectionMarks
    private var cache: [String: Cached] = [:]
    /// Every entry found by the last refresh, in no order.
    private(set) var entries: [ScriptEntry] = []

    init(files: ScriptFiles, importer: ScriptImporter, lineBreaks: LineBreaks, directions: DirectionMarks) {
        self.files = files
        imports = ScriptImportListing(importer: importer)
        self.lineBreaks = lineBreaks
        self.directions = directions
    }

    // MARK: Listing

    /// Folder names, alphabetical (case-insensitive, numbers in numeric order).
    func folders() -> [String] {
        files.folderNames().sorted(by: Self.alphabetical)
    }

    /// Readable scripts in the selection, newest first.
    func scripts(in selection: LibrarySelection) -> [ScriptEntry] {
        entries.filter { $0.condition.isReadable && Self.matches($0, selection) }.sorted(by: Self.newestFirst)
    }

    /// Files that were found but cannot be read, by id.
    var skipped: [ScriptEntry] {
        entries.filter { !$0.condition.isReadable }.sorted { $0.id < $1.id }
    }

    func entry(id: String) -> ScriptEntry? {
        cache[id]?.entry
    }

    /// Case-insensitive substring search over title and reading text, newest first.
    /// An empty query (after trimming) lists the whole selection.
    func search(_ query: String, in selection: LibrarySelection) -> [ScriptEntry] {
        let needle = query.trimmingCharacters(in: .whitespacesAndNewlines)
        let listed = scripts(in: selection)
        guard !needle.isEmpty else { return listed }
        return listed.filter { entry in
            entry.title.range(of: needle, options: .caseInsensitive) != nil
                || (cache[entry.id]?.readingText.range(of: needle, options: .caseInsensitive) != nil)
        }
    }

    /// Re-reads the directory under `limit` (`maxScriptBytes`); only files whose stamp
    /// changed, or whose verdict depends on a changed limit, are read again.
    mutating func refresh(limit: Int) {
        var fresh: [String: Cached] = [:]
        scan(folder: nil, limit: limit, into: &fresh)
        for folder in files.folderNames() {
            scan(folder: folder, limit: limit, into: &fresh)
        }
        cache = fresh
        entries = fresh.values.map(\.entry)
    }

    /// An imported script's text, as the importer read it; throws while it is converting
    /// or when it cannot be converted.
    mutating func importedText(id: String, url: URL, kind: ScriptImportKind,
                               limit: Int) throws(ScriptLibraryError) -> ScriptText {
        guard let stamp = FileStamp(path: url.path) else { throw .notFound(id: id) }
        var known = cache[id]
        if known?.stamp != stamp || known?.isStale(limit: limit) != false {
            // Changed since the last scan, or still converting: the result may be in.
            let folder = id.contains("/") ? id.split(separator: "/").first.map(String.init) : nil
            known = imports.listed(url: url, id: id, folder: folder, kind: kind, stamp: stamp, limit: limit)
            cache[id] = known
            entries = cache.values.map(\.entry)
        }
        if let script = known?.imported { return script }
        switch known?.entry.condition {
        case .cannotImport(let message)?: throw .notImported(id: id, reason: message)
        default: throw .notImported(id: id, reason: "still converting with \(kind.tool); try again in a moment.")
        }
    }

    // MARK: Scanning

    private func scan(folder: String?, limit: Int, into fresh: inout [String: Cached]) {
        let directory = files.directoryURL(for: folder)
        lazy var importedByInode = Dictionary(cache.values.filter { $0.imported != nil }.map { ($0.stamp.inode, $0) },
                                              uniquingKeysWith: { first, _ in first })
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where !name.hasPrefix(".") {
            let url = directory.appendingPathComponent(name)
            if let kind = ScriptImportKind(fileExtension: url.pathExtension), let stamp = FileStamp(path: url.path) {
                let id = ScriptFiles.id(folder: folder, fileName: name)
                if let known = cache[id], known.stamp == stamp, !known.isStale(limit: limit) {
                    fresh[id] = known
                } else if cache[id] == nil, let moved = importedByInode[stamp.inode], moved.stamp == stamp,
                          !moved.isStale(limit: limit) {
                    // Renamed or moved by the library (or by hand): same file, same text.
                    fresh[id] = moved.relocated(id: id, folder: folder, url: url)
                } else {
                    fresh[id] = imports.listed(url: url, id: id, folder: folder, kind: kind, stamp: stamp, limit: limit)
                }
                continue
            }
            guard let format = ScriptFormat(fileExtension: url.pathExtension),
                  let stamp = FileStamp(path: url.path) else { continue }
            let id = ScriptFiles.id(folder: folder, fileName: name)
            if let known = cache[id], known.stamp == stamp, !known.isStale(limit: limit) {
                fresh[id] = known
                continue
            }
            fresh[id] = load(url: url, id: id, folder: folder, format: format, stamp: stamp, limit: limit)
        }
    }

    private func load(url: URL, id: String, folder: String?, format: ScriptFormat, stamp: FileStamp,
                      limit: Int) -> Cached {
        let title = url.deletingPathExtension().lastPathComponent
        var entry = ScriptEntry(id: id, title: title, folder: folder, format: format, modified: stamp.modified,
                                size: stamp.size, wordCount: 0, condition: .ok)
        guard stamp.size <= limit else {
            entry.condition = .tooLarge(size: stamp.size, limit: limit)
            return Cached(entry: entry, stamp: stamp, readingText: "")
        }
        guard let data = try? Data(contentsOf: url) else {
            // Vanished or unreadable between stat and read: list it empty; the next
            // inotify wake-up refreshes it.
            return Cached(entry: entry, stamp: stamp, readingText: "")
        }
        let decoded = ScriptDecoder.decode(data)
        entry.condition = decoded.condition
        let (reading, _, markup) = ScriptLibrary.readingTextAndMarkers(decoded.text, format: format,
                                                                       lineBreaks: lineBreaks, directions: directions)
        entry.wordCount = ReadingTime.wordCount(reading, markup: markup)
        return Cached(entry: entry, stamp: stamp, readingText: reading)
    }

    // MARK: Order

    private static func matches(_ entry: ScriptEntry, _ selection: LibrarySelection) -> Bool {
        switch selection {
        case .allScripts: return true
        case .topLevel: return entry.folder == nil
        case .folder(let name): return entry.folder == name
        }
    }

    private static func alphabetical(_ a: String, _ b: String) -> Bool {
        switch a.compare(b, options: [.caseInsensitive, .numeric]) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: return a < b
        }
    }

    private static func newestFirst(_ a: ScriptEntry, _ b: ScriptEntry) -> Bool {
        if a.modified != b.modified { return a.modified > b.modified }
        if a.title != b.title { return alphabetical(a.title, b.title) }
        return a.id < b.id
    }
}

extension ScriptIndex.Cached {
    /// A cached "too large" verdict goes stale when the limit changes.
    func isStale(limit: Int) -> Bool {
        if let importLimit { return importLimit != limit }
        switch entry.condition {
        case .tooLarge(_, let seen): return seen != limit
        // Looked at again on every refresh: the conversion may have finished, or the
        // missing converter been installed. Both checks are a dictionary look-up, a stat
        // and at most a small read.
        case .converting, .cannotImport: return true
        default: return stamp.size > limit
        }
    }

    /// The same imported document under a new name or folder.
    func relocated(id: String, folder: String?, url: URL) -> Self {
        var moved = self
        moved.entry.id = id
        moved.entry.folder = folder
        moved.entry.title = url.deletingPathExtension().lastPathComponent
        moved.imported?.id = id
        return moved
    }
}
