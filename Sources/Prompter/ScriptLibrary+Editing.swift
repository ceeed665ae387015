import Durable
import Foundation

/// Edits to the library. Each works on the disk and then refreshes the listing.
/// Names clash case-insensitively, because libraries travel on FAT-formatted sticks.
extension ScriptLibrary {
    // MARK: Scripts

    /// A new script named "Untitled" ("Untitled 2", … when taken) in `folder`.
    @discardableResult
    public func createScript(in folder: String? = nil, text: String = "",
                             format: ScriptFormat = .plainText) throws(ScriptLibraryError) -> ScriptEntry {
        let directory = try existingDirectory(folder)
        let title = ScriptNaming.unique(ScriptNaming.untitled) { titleTaken($0, in: directory) }
        return try write(text, title: title, folder: folder, format: format)
    }

    /// Saves edited text atomically (temp file, fsync, rename, fsync directory).
    @discardableResult
    public func save(id: String, text: String) throws(ScriptLibraryError) -> ScriptEntry {
        let url = try fileURL(for: id)
        guard FileStamp(path: url.path) != nil else { throw .notFound(id: id) }
        if ScriptImportKind(fileExtension: url.pathExtension) != nil { throw .readOnlyImport(id: id) }
        do {
            try AtomicFile.write(Data(text.utf8), to: url)
        } catch {
            throw .wrap(error, path: url, operation: "save")
        }
        return try refreshed(id)
    }

    /// Renames a script (its title is its file name; the extension stays).
    @discardableResult
    public func rename(id: String, to newTitle: String) throws(ScriptLibraryError) -> ScriptEntry {
        let title = try ScriptNaming.validated(newTitle)
        let (url, current) = try existingEntry(id)
        let directory = url.deletingLastPathComponent()
        if title == current.title { return current }
        // A change of case only is a rename onto itself on a case-insensitive disk: allowed.
        if title.lowercased() != current.title.lowercased(), titleTaken(title, in: directory) {
            throw .nameTaken(title)
        }
        let target = directory.appendingPathComponent(title + "." + url.pathExtension)
        try moveItem(url, to: target)
        return try refreshed(Self.id(folder: current.folder, fileName: target.lastPathComponent))
    }

    /// Copies a script next to itself as "Demo copy", "Demo copy 2", …
    @discardableResult
    public func duplicate(id: String) throws(ScriptLibraryError) -> ScriptEntry {
        let (url, current) = try existingEntry(id)
        let directory = url.deletingLastPathComponent()
        let title = ScriptNaming.copyName(of: current.title) { titleTaken($0, in: directory) }
        let target = directory.appendingPathComponent(title + "." + url.pathExtension)
        do {
            try AtomicFile.write(try Data(contentsOf: url), to: target)
        } catch {
            throw .wrap(error, path: target, operation: "duplicate into")
        }
        return try refreshed(Self.id(folder: current.folder, fileName: target.lastPathComponent))
    }

    /// Moves a script into `folder` (nil: the top level). A clashing name gets a number
    /// ("Demo 2") rather than failing, so a move never loses or blocks anything.
    @discardableResult
    public func move(id: String, toFolder folder: String?) throws(ScriptLibraryError) -> ScriptEntry {
        let (url, current) = try existingEntry(id)
        if current.folder == folder { return current }
        let directory = try existingDirectory(folder)
        let title = ScriptNaming.unique(current.title) { titleTaken($0, in: directory) }
        let target = directory.appendingPathComponent(title + "." + url.pathExtension)
        try moveItem(url, to: target)
        return try refreshed(Self.id(folder: folder, fileName: target.lastPathComponent))
    }

    /// Deletes a script for good. This is the deletion itself: the UI must ask the
    /// operator to confirm before calling it.
    public func delete(id: String) throws(ScriptLibraryError) {
        let (url, _) = try existingEntry(id)
        guard unlink(url.path) == 0 else {
            throw .io(path: url.path, operation: "delete", reason: String(cString: strerror(errno)))
        }
        // An imported document's cache goes with it (a no-op for .txt/.md).
        unlink(ScriptImportCache.url(for: url).path)
        try? AtomicFile.syncDirectory(url.deletingLastPathComponent().path)
        refresh()
    }

    // MARK: Folders

    @discardableResult
    public func createFolder(named rawName: String) throws(ScriptLibraryError) -> String {
        let name = try ScriptNaming.validated(rawName)
        if nameTakenAtTopLevel(name) { throw .nameTaken(name) }
        do {
            try FileManager.default.createDirectory(at: directoryURL(for: name), withIntermediateDirectories: false)
        } catch {
            throw .wrap(error, path: directoryURL(for: name), operation: "create folder")
        }
        refresh()
        return name
    }

    @discardableResult
    public func renameFolder(_ folder: String, to rawName: String) throws(ScriptLibraryError) -> String {
        let source = try existingDirectory(folder)
        let name = try ScriptNaming.validated(rawName)
        if name == folder { return name }
        if name.lowercased() != folder.lowercased(), nameTakenAtTopLevel(name) { throw .nameTaken(name) }
        try moveItem(source, to: directoryURL(for: name))
        refresh()
        return name
    }

    /// A script that a folder operation moved: its id before, and its entry now.
    public struct MovedScript: Equatable, Sendable {
        public let oldID: String
        public let entry: ScriptEntry
    }

    /// Deletes a folder but keeps everything in it: its scripts (and any other files)
    /// move to the top level, renamed "Demo 2" etc. when a name is taken there.
    /// Returns the moved scripts, each with the id it had, as they are now listed.
    @discardableResult
    public func deleteFolder(_ folder: String) throws(ScriptLibraryError) -> [MovedScript] {
        let source = try existingDirectory(folder)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: source.path)
        } catch {
            throw .wrap(error, path: source, operation: "list folder")
        }
        var movedIDs: [(old: String, new: String)] = []
        for name in names.sorted() {
            let url = source.appendingPathComponent(name)
            let ext = url.pathExtension
            let base = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
            let isScript = ScriptFormat(fileExtension: ext) != nil && !name.hasPrefix(".")
            let unique = ScriptNaming.unique(base) { candidate in
                let file = ext.isEmpty ? candidate : candidate + "." + ext
                return (isScript && titleTaken(candidate, in: root)) || nameTakenAtTopLevel(file)
            }
            let fileName = ext.isEmpty ? unique : unique + "." + ext
            try moveItem(url, to: root.appendingPathComponent(fileName))
            if isScript { movedIDs.append((Self.id(folder: folder, fileName: name), fileName)) }
        }
        guard rmdir(source.path) == 0 else {
            throw .io(path: source.path, operation: "remove folder", reason: String(cString: strerror(errno)))
        }
        try? AtomicFile.syncDirectory(root.path)
        refresh()
        return movedIDs.compactMap { ids in entry(id: ids.new).map { MovedScript(oldID: ids.old, entry: $0) } }
    }

    // MARK: Helpers

    private func write(_ text: String, title: String, folder: String?,
                       format: ScriptFormat) throws(ScriptLibraryError) -> ScriptEntry {
        let fileName = title + "." + format.rawValue
        let url = directoryURL(for: folder).appendingPathComponent(fileName)
        do {
            try AtomicFile.write(Data(text.utf8), to: url)
        } catch {
            throw .wrap(error, path: url, operation: "create")
        }
        return try refreshed(Self.id(folder: folder, fileName: fileName))
    }

    private func refreshed(_ id: String) throws(ScriptLibraryError) -> ScriptEntry {
        refresh()
        guard let entry = entry(id: id) else { throw .notFound(id: id) }
        return entry
    }

    private func existingEntry(_ id: String) throws(ScriptLibraryError) -> (URL, ScriptEntry) {
        let url = try fileURL(for: id)
        if FileStamp(path: url.path) == nil { throw .notFound(id: id) }
        if entry(id: id) == nil { refresh() }
        guard let entry = entry(id: id) else { throw .notFound(id: id) }
        return (url, entry)
    }

    private func existingDirectory(_ folder: String?) throws(ScriptLibraryError) -> URL {
        guard let folder else { return root }
        guard !folder.contains("/"), !folder.hasPrefix("."), directoryNames(in: root).contains(folder) else {
            throw .folderNotFound(folder)
        }
        return directoryURL(for: folder)
    }

    /// True when a script with this title (any script extension) is in `directory`.
    func titleTaken(_ title: String, in directory: URL) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let wanted = title.lowercased()
        return names.contains { name in
            let file = name as NSString
            return !name.hasPrefix(".")
                && (ScriptFormat(fileExtension: file.pathExtension) != nil
                    || ScriptImportKind(fileExtension: file.pathExtension) != nil)
                && file.deletingPathExtension.lowercased() == wanted
        }
    }

    private func nameTakenAtTopLevel(_ name: String) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.contains { $0.lowercased() == name.lowercased() }
    }

    private func moveItem(_ source: URL, to target: URL) throws(ScriptLibraryError) {
        // rename(2) would silently replace an existing file; check first, then rename.
        var info = stat()
        if source.path.lowercased() != target.path.lowercased(), stat(target.path, &info) == 0 {
            throw .nameTaken(target.lastPathComponent)
        }
        guard Glibc.rename(source.path, target.path) == 0 else {
            throw .io(path: source.path, operation: "move", reason: String(cString: strerror(errno)))
        }
        if ScriptImportKind(fileExtension: source.pathExtension) != nil {
            // The cache follows its document (a rename keeps the modification time, so
            // it stays fresh and nothing is converted again). Missing is fine.
            _ = Glibc.rename(ScriptImportCache.url(for: source).path, ScriptImportCache.url(for: target).path)
        }
        try? AtomicFile.syncDirectory(target.deletingLastPathComponent().path)
        if source.deletingLastPathComponent() != target.deletingLastPathComponent() {
            try? AtomicFile.syncDirectory(source.deletingLastPathComponent().path)
        }
    }
}
