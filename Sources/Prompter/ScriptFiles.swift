import Durable
import Foundation

/// The library's files on disk: where an id lives, which names are taken, and the edits.
/// Each edit returns the id or name it ended up with and leaves the listing to its
/// caller. Names clash case-insensitively, because libraries travel on FAT-formatted
/// sticks.
struct ScriptFiles {
    let root: URL

    // MARK: Layout

    /// The file for an id, refusing ids that leave the library or go deeper than a folder.
    func fileURL(for id: String) throws(ScriptLibraryError) -> URL {
        let parts = id.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
              parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }) else { throw .notFound(id: id) }
        return parts.reduce(root) { $0.appendingPathComponent(String($1)) }
    }

    func directoryURL(for folder: String?) -> URL {
        folder.map { root.appendingPathComponent($0, isDirectory: true) } ?? root
    }

    static func id(folder: String?, fileName: String) -> String {
        folder.map { "\($0)/\(fileName)" } ?? fileName
    }

    /// The folders: visible subdirectories of the root, in no order.
    func folderNames() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { name in
            guard !name.hasPrefix(".") else { return false }
            var info = stat()
            return stat(root.appendingPathComponent(name).path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
        }
    }

    // MARK: Scripts

    /// Writes a new script named "Untitled" ("Untitled 2", … when taken); returns its id.
    func createScript(in folder: String?, text: String, format: ScriptFormat) throws(ScriptLibraryError) -> String {
        let directory = try existingDirectory(folder)
        let title = ScriptNaming.unique(ScriptNaming.untitled) { titleTaken($0, in: directory) }
        let fileName = title + "." + format.rawValue
        let url = directoryURL(for: folder).appendingPathComponent(fileName)
        do {
            try AtomicFile.write(Data(text.utf8), to: url)
        } catch {
            throw .wrap(error, path: url, operation: "create")
        }
        return Self.id(folder: folder, fileName: fileName)
    }

    /// Replaces a script's text atomically (temp file, fsync, rename, fsync directory).
    /// Imported documents are read-only.
    func save(id: String, text: String) throws(ScriptLibraryError) {
        let url = try fileURL(for: id)
        guard FileStamp(path: url.path) != nil else { throw .notFound(id: id) }
        if ScriptImportKind(fileExtension: url.pathExtension) != nil { throw .readOnlyImport(id: id) }
        do {
            try AtomicFile.write(Data(text.utf8), to: url)
        } catch {
            throw .wrap(error, path: url, operation: "save")
        }
    }

    /// Renames a script's file to `title` (validated; the extension stays); returns its id.
    func rename(_ script: ScriptEntry, to title: String) throws(ScriptLibraryError) -> String {
        let url = try fileURL(for: script.id)
        let directory = url.deletingLastPathComponent()
        // A change of case only is a rename onto itself on a case-insensitive disk: allowed.
        if title.lowercased() != script.title.lowercased(), titleTaken(title, in: directory) {
            throw .nameTaken(title)
        }
        let target = directory.appendingPathComponent(title + "." + url.pathExtension)
        try moveItem(url, to: target)
        return Self.id(folder: script.folder, fileName: target.lastPathComponent)
    }

    /// Copies a script next to itself as "Demo copy", "Demo copy 2", …; returns the copy's id.
    func duplicate(_ script: ScriptEntry) throws(ScriptLibraryError) -> String {
        let url = try fileURL(for: script.id)
        let directory = url.deletingLastPathComponent()
        let title = ScriptNaming.copyName(of: script.title) { titleTaken($0, in: directory) }
        let target = directory.appendingPathComponent(title + "." + url.pathExtension)
        do {
            try AtomicFile.write(try Data(contentsOf: url), to: target)
        } catch {
            throw .wrap(error, path: target, operation: "duplicate into")
        }
        return Self.id(folder: script.folder, fileName: target.lastPathComponent)
    }

    /// Moves a script into `folder` (nil: the top level), numbered ("Demo 2") when its
    /// name is taken there; returns its id.
    func move(_ script: ScriptEntry, toFolder folder: String?) throws(ScriptLibraryError) -> String {
        let url = try fileURL(for: script.id)
        let directory = try existingDirectory(folder)
        let title = ScriptNaming.unique(script.title) { titleTaken($0, in: directory) }
        let target = directory.appendingPathComponent(title + "." + url.pathExtension)
        try moveItem(url, to: target)
        return Self.id(folder: folder, fileName: target.lastPathComponent)
    }

    /// Deletes a script's file for good, and an imported document's cache with it.
    func delete(_ script: ScriptEntry) throws(ScriptLibraryError) {
        let url = try fileURL(for: script.id)
        guard unlink(url.path) == 0 else {
            throw .io(path: url.path, operation: "delete", reason: String(cString: strerror(errno)))
        }
        // A no-op for .txt/.md.
        unlink(ScriptImportCache.url(for: url).path)
        try? AtomicFile.syncDirectory(url.deletingLastPathComponent().path)
    }

    // MARK: Folders

    /// Creates a folder; returns its name as validated.
    func createFolder(named rawName: String) throws(ScriptLibraryError) -> String {
        let name = try ScriptNaming.validated(rawName)
        if nameTakenAtTopLevel(name) { throw .nameTaken(name) }
        do {
            try FileManager.default.createDirectory(at: directoryURL(for: name), withIntermediateDirectories: false)
        } catch {
            throw .wrap(error, path: directoryURL(for: name), operation: "create folder")
        }
        return name
    }

    /// Renames a folder; returns its new name as validated.
    func renameFolder(_ folder: String, to rawName: String) throws(ScriptLibraryError) -> String {
        let source = try existingDirectory(folder)
        let name = try ScriptNaming.validated(rawName)
        if name == folder { return name }
        if name.lowercased() != folder.lowercased(), nameTakenAtTopLevel(name) { throw .nameTaken(name) }
        try moveItem(source, to: directoryURL(for: name))
        return name
    }

    /// Moves everything in a folder to the top level ("Demo 2" etc. when a name is taken
    /// there) and removes it. Returns each moved script's id before and after.
    func deleteFolder(_ folder: String) throws(ScriptLibraryError) -> [(old: String, new: String)] {
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
        return movedIDs
    }

    // MARK: Names

    private func existingDirectory(_ folder: String?) throws(ScriptLibraryError) -> URL {
        guard let folder else { return root }
        guard !folder.contains("/"), !folder.hasPrefix("."), folderNames().contains(folder) else {
            throw .folderNotFound(folder)
        }
        return directoryURL(for: folder)
    }

    /// True when a script with this title (any script extension) is in `directory`.
    private func titleTaken(_ title: String, in directory: URL) -> Bool {
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
