import Foundation

/// How an imported document (.docx, .odt, .rtf, .pdf) is listed: from what the importer's
/// thread made of it (`ImportedScript`: the text read for prompting, or why there is
/// none). Listing takes a finished result or asks for it; it never runs a converter nor
/// reads or parses a converted text, so a scan on the event loop stays a scan however
/// large the documents are.
struct ScriptImportListing {
    let importer: ScriptImporter

    /// The document's listing under `limit` (`maxScriptBytes`): its text when the importer
    /// has it for this version of the file, else converting or why it cannot be imported.
    func listed(url: URL, id: String, folder: String?, kind: ScriptImportKind, stamp: FileStamp,
                limit: Int) -> ScriptIndex.Cached {
        let title = url.deletingPathExtension().lastPathComponent
        var entry = ScriptEntry(id: id, title: title, folder: folder, format: kind.readAs, modified: stamp.modified,
                                size: stamp.size, wordCount: 0, condition: .ok, importedFrom: kind)
        if let result = importer.take(url), result.size == stamp.size, result.modified == stamp.modified,
           result.limit == limit {
            switch result.outcome {
            case let .text(source, reading, markers, markup, wordCount):
                entry.wordCount = wordCount
                let script = ScriptText(id: id, source: source, readingText: reading, format: kind.readAs,
                                        repaired: false, wordCount: wordCount, markers: markers, markup: markup,
                                        importedFrom: kind)
                return ScriptIndex.Cached(entry: entry, stamp: stamp, readingText: reading, imported: script,
                                          importLimit: result.limit)
            case .refused(let message):
                entry.condition = .cannotImport(message)
                return ScriptIndex.Cached(entry: entry, stamp: stamp, readingText: "", importLimit: result.limit)
            }
        }
        // No result for this version of the file and limit (one for an older one was
        // dropped above): ask for it, unless nothing could make it.
        if importer.converter.locate(kind.tool) == nil
            && !ScriptImportCache.exists(for: url, size: stamp.size, modified: stamp.modified) {
            entry.condition = .cannotImport(kind.missingToolMessage)
        } else {
            entry.condition = .converting(tool: kind.tool)
            importer.request(url, kind: kind, size: stamp.size, modified: stamp.modified, limit: limit)
        }
        return ScriptIndex.Cached(entry: entry, stamp: stamp, readingText: "")
    }
}
