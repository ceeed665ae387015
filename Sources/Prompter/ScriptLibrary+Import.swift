import Foundation

/// Imported documents (.docx, .odt, .rtf, .pdf): listed from their cache, converted
/// on the importer's thread when the cache is missing or stale. Nothing here runs a
/// converter on the caller's thread, so a scan on the event loop stays a scan.
extension ScriptLibrary {
    func loadImported(url: URL, id: String, folder: String?, kind: ScriptImportKind, stamp: FileStamp) -> Cached {
        let title = url.deletingPathExtension().lastPathComponent
        var entry = ScriptEntry(id: id, title: title, folder: folder, format: kind.readAs, modified: stamp.modified,
                                size: stamp.size, wordCount: 0, condition: .ok, importedFrom: kind)
        switch ScriptImportCache.read(for: url, size: stamp.size, modified: stamp.modified) {
        case .text(let text):
            let reading = Self.readingText(text, format: kind.readAs, lineBreaks: lineBreaks)
            entry.wordCount = ReadingTime.wordCount(reading)
            return Cached(entry: entry, stamp: stamp, readingText: reading)
        case .failed(let message):
            entry.condition = .cannotImport(message)
        case nil:
            if importer.converter.locate(kind.tool) == nil {
                entry.condition = .cannotImport(kind.missingToolMessage)
            } else {
                entry.condition = .converting(tool: kind.tool)
                importer.request(url, kind: kind, size: stamp.size, modified: stamp.modified)
            }
        }
        return Cached(entry: entry, stamp: stamp, readingText: "")
    }

    /// An imported script's text, from its cache; throws while it is converting or
    /// when it cannot be converted.
    func readImported(_ url: URL, id: String, kind: ScriptImportKind) throws(ScriptLibraryError) -> ScriptText {
        guard let stamp = Self.stamp(of: url.path) else { throw .notFound(id: id) }
        switch ScriptImportCache.read(for: url, size: stamp.size, modified: stamp.modified) {
        case .text(let text):
            let (reading, markers) = Self.readingTextAndMarkers(text, format: kind.readAs, lineBreaks: lineBreaks)
            return ScriptText(id: id, source: text, readingText: reading, format: kind.readAs, repaired: false,
                              wordCount: ReadingTime.wordCount(reading), markers: markers, importedFrom: kind)
        case .failed(let message):
            throw .notImported(id: id, reason: message)
        case nil:
            if importer.converter.locate(kind.tool) == nil {
                throw .notImported(id: id, reason: kind.missingToolMessage)
            }
            importer.request(url, kind: kind, size: stamp.size, modified: stamp.modified)
            throw .notImported(id: id, reason: "still converting with \(kind.tool); try again in a moment.")
        }
    }
}
