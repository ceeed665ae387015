import Foundation

/// Imported documents (.docx, .odt, .rtf, .pdf): listed from what the importer's thread
/// made of them (`ImportedScript`: the text read for prompting, or why there is none).
/// A scan takes finished results and asks for the rest; it never runs a converter nor
/// reads or parses a converted text, so a scan on the event loop stays a scan however
/// large the documents are.
extension ScriptLibrary {
    func loadImported(url: URL, id: String, folder: String?, kind: ScriptImportKind, stamp: FileStamp) -> Cached {
        let title = url.deletingPathExtension().lastPathComponent
        var entry = ScriptEntry(id: id, title: title, folder: folder, format: kind.readAs, modified: stamp.modified,
                                size: stamp.size, wordCount: 0, condition: .ok, importedFrom: kind)
        if let result = importer.take(url), result.size == stamp.size, result.modified == stamp.modified,
           result.limit == maxScriptBytes {
            switch result.outcome {
            case let .text(source, reading, markers, markup, wordCount):
                entry.wordCount = wordCount
                let script = ScriptText(id: id, source: source, readingText: reading, format: kind.readAs,
                                        repaired: false, wordCount: wordCount, markers: markers, markup: markup,
                                        importedFrom: kind)
                return Cached(entry: entry, stamp: stamp, readingText: reading, imported: script,
                              importLimit: result.limit)
            case .refused(let message):
                entry.condition = .cannotImport(message)
                return Cached(entry: entry, stamp: stamp, readingText: "", importLimit: result.limit)
            }
        }
        // No result for this version of the file and limit (one for an older one was
        // dropped above): ask for it, unless nothing could make it.
        if importer.converter.locate(kind.tool) == nil
            && !ScriptImportCache.exists(for: url, size: stamp.size, modified: stamp.modified) {
            entry.condition = .cannotImport(kind.missingToolMessage)
        } else {
            entry.condition = .converting(tool: kind.tool)
            importer.request(url, kind: kind, size: stamp.size, modified: stamp.modified, limit: maxScriptBytes)
        }
        return Cached(entry: entry, stamp: stamp, readingText: "")
    }

    /// An imported script's text, as the importer read it; throws while it is converting
    /// or when it cannot be converted.
    func readImported(_ url: URL, id: String, kind: ScriptImportKind) throws(ScriptLibraryError) -> ScriptText {
        guard let stamp = FileStamp(path: url.path) else { throw .notFound(id: id) }
        var known = cache[id]
        if known?.stamp != stamp || known?.isStale(limit: maxScriptBytes) != false {
            // Changed since the last scan, or still converting: the result may be in.
            let folder = id.contains("/") ? id.split(separator: "/").first.map(String.init) : nil
            known = loadImported(url: url, id: id, folder: folder, kind: kind, stamp: stamp)
            cache[id] = known
            entries = cache.values.map(\.entry)
        }
        if let script = known?.imported { return script }
        switch known?.entry.condition {
        case .cannotImport(let message)?: throw .notImported(id: id, reason: message)
        default: throw .notImported(id: id, reason: "still converting with \(kind.tool); try again in a moment.")
        }
    }
}

extension ScriptLibrary.Cached {
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
