import Foundation
import Markup
import Testing
@testable import Prompter

/// Script import with the real converters (pandoc, pdftotext from scripts/install-deps):
/// the documents are made here, by pandoc itself or by hand (the PDF).
@Suite struct ScriptImportTests {
    static let markdown = "# Opening\n\nGood evening and welcome.\n\n## The news\n\nToday the rig learned to read documents.\n"

    /// Runs pandoc to write a document from Markdown, as an author's word processor would.
    static func pandocWrite(_ markdown: String, to url: URL, format: String) throws {
        let source = url.deletingLastPathComponent().appendingPathComponent(".source-\(format).md")
        try Data(markdown.utf8).write(to: source)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pandoc")
        process.arguments = ["--from", "markdown", "--to", format, "--output", url.path, source.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        try FileManager.default.removeItem(at: source)
    }

    /// A one-page PDF with two paragraphs in Helvetica, with a correct cross-reference table.
    static func minimalPDF() -> Data {
        let content = "BT /F1 14 Tf 72 720 Td (First paragraph of the talk.) Tj 0 -60 Td (Second paragraph here.) Tj ET"
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
        var pdf = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, body) in objects.enumerated() {
            offsets.append(pdf.utf8.count)
            pdf += "\(index + 1) 0 obj\n\(body)\nendobj\n"
        }
        let xref = pdf.utf8.count
        pdf += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { pdf += String(format: "%010d 00000 n \n", offset) }
        pdf += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(pdf.utf8)
    }

    static func idleLibrary(_ dir: TemporaryDirectory, path: String? = nil, timeout: Double = 30) throws -> ScriptLibrary {
        let library = try ScriptLibrary(root: dir.url, importTimeout: timeout, converterSearchPath: path)
        #expect(library.importer.waitUntilIdle(timeout: 60))
        library.refresh()
        return library
    }

    @Test(arguments: ["docx", "odt", "rtf"])
    func pandocDocumentsReadWithHeadingsAsMarkers(format: String) throws {
        let dir = TemporaryDirectory()
        try Self.pandocWrite(Self.markdown, to: dir.url.appendingPathComponent("News.\(format)"), format: format)
        let first = try ScriptLibrary(root: dir.url)
        let converting = try #require(first.entry(id: "News.\(format)"))
        #expect(converting.condition == .converting(tool: "pandoc"))
        #expect(first.skipped.map(\.id) == ["News.\(format)"])
        #expect(first.importer.waitUntilIdle(timeout: 60))
        first.refresh()
        let entry = try #require(first.scripts().first)
        #expect(entry.id == "News.\(format)")
        #expect(entry.importedFrom == ScriptImportKind(rawValue: format))
        #expect(entry.wordCount == 14)
        let script = try first.readScript(id: "News.\(format)")
        #expect(script.readingText.contains("Good evening and welcome."))
        #expect(script.readingText.contains("Today the rig learned to read documents."))
        #expect(script.markers.map(\.name) == ["Opening", "The news"])
        #expect(FileManager.default.fileExists(atPath: dir.url.appendingPathComponent(".News.\(format).rig-import").path))
        #expect(throws: ScriptLibraryError.readOnlyImport(id: "News.\(format)")) {
            try first.save(id: "News.\(format)", text: "edited")
        }
    }

    /// A document's bold and italic come through pandoc's Markdown as marks, and a
    /// direction the writer typed is a direction (pandoc's escaping of it undone).
    @Test(arguments: ["docx", "odt"])
    func documentsKeepBoldItalicAndDirections(format: String) throws {
        let dir = TemporaryDirectory()
        try Self.pandocWrite("Say **this** slowly, *then* smile \\[PAUSE\\] and go on.\n",
                             to: dir.url.appendingPathComponent("Marked.\(format)"), format: format)
        let library = try Self.idleLibrary(dir)
        let script = try library.readScript(id: "Marked.\(format)")
        #expect(script.readingText.trimmingCharacters(in: .newlines) == "Say this slowly, then smile [PAUSE] and go on.")
        let scalars = Array(script.readingText.unicodeScalars)
        let shown = script.markup.spans.map { span in
            (String(String.UnicodeScalarView(scalars[span.range])), span.marks)
        }
        #expect(shown.map(\.0) == ["this", "then", "[PAUSE]"])
        #expect(shown.map(\.1) == [.strong, .emphasis, .direction])
        #expect(script.wordCount == 8)
    }

    @Test func pdfReadsAsPlainTextParagraphs() throws {
        let dir = TemporaryDirectory()
        _ = dir.write("Talk.pdf", [UInt8](Self.minimalPDF()))
        let library = try Self.idleLibrary(dir)
        let script = try library.readScript(id: "Talk.pdf")
        #expect(script.format == .plainText)
        #expect(script.readingText.contains("First paragraph of the talk."))
        #expect(script.readingText.contains("Second paragraph here."))
        #expect(!script.readingText.contains("\u{0C}"))
    }

    @Test func secondScanUsesTheCacheAndAChangeConvertsAgain() throws {
        let dir = TemporaryDirectory()
        let url = dir.url.appendingPathComponent("News.docx")
        try Self.pandocWrite(Self.markdown, to: url, format: "docx")
        let first = try Self.idleLibrary(dir)
        #expect(first.importer.conversionsRun == 1)
        // The cache is read (and its text parsed) on the importer's thread, not in the scan.
        let second = try Self.idleLibrary(dir)
        #expect(second.scripts().map(\.id) == ["News.docx"])
        #expect(try second.readScript(id: "News.docx").markers.count == 2)
        #expect(second.importer.conversionsRun == 0)

        try Self.pandocWrite("# Changed\n\nA new text.\n", to: url, format: "docx")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 5_000)], ofItemAtPath: url.path)
        second.refresh()
        #expect(second.entry(id: "News.docx")?.condition == .converting(tool: "pandoc"))
        #expect(second.importer.waitUntilIdle(timeout: 60))
        second.refresh()
        #expect(second.importer.conversionsRun == 1)
        #expect(try second.readScript(id: "News.docx").markers.map(\.name) == ["Changed"])
    }

    @Test func renameMoveAndDeleteTakeTheCacheAlong() throws {
        let dir = TemporaryDirectory()
        try Self.pandocWrite(Self.markdown, to: dir.url.appendingPathComponent("News.docx"), format: "docx")
        let library = try Self.idleLibrary(dir)
        try library.createFolder(named: "Shows")
        let renamed = try library.rename(id: "News.docx", to: "Evening")
        let moved = try library.move(id: renamed.id, toFolder: "Shows")
        #expect(moved.id == "Shows/Evening.docx")
        #expect(moved.condition == .ok)
        #expect(library.importer.conversionsRun == 1)
        let cache = dir.url.appendingPathComponent("Shows/.Evening.docx.rig-import")
        #expect(FileManager.default.fileExists(atPath: cache.path))
        try library.delete(id: moved.id)
        #expect(!FileManager.default.fileExists(atPath: cache.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["Shows"])
    }

    @Test func missingConverterListsTheFileWithTheMessage() throws {
        let dir = TemporaryDirectory()
        try Self.pandocWrite(Self.markdown, to: dir.url.appendingPathComponent("News.docx"), format: "docx")
        _ = dir.write("Talk.pdf", [UInt8](Self.minimalPDF()))
        let empty = TemporaryDirectory()
        let library = try Self.idleLibrary(dir, path: empty.url.path)
        #expect(library.scripts().isEmpty)
        #expect(library.skipped.map(\.id) == ["News.docx", "Talk.pdf"])
        #expect(library.skipped.map(\.skipReason) == [
            "cannot read .docx: install pandoc (it provides pandoc).",
            "cannot read .pdf: install poppler-utils (it provides pdftotext).",
        ])
        #expect(library.importer.conversionsRun == 0)
        #expect(throws: ScriptLibraryError.notImported(id: "News.docx",
                                                       reason: "cannot read .docx: install pandoc (it provides pandoc).")) {
            try library.readScript(id: "News.docx")
        }
    }

    @Test func aLargeCachedTextIsReadOnTheImportersThreadNotInTheScan() throws {
        let dir = TemporaryDirectory()
        let url = dir.write("Long.docx", "a document converted earlier")
        let stamp = try #require(FileStamp(path: url.path))
        let part = "# Part\n\n" + String(repeating: "Read these words at a steady pace.\n\n", count: 1_000)
        let text = String(repeating: part, count: 30)
        try ScriptImportCache.write(.text(text), for: url, size: stamp.size, modified: stamp.modified)
        let library = try ScriptLibrary(root: dir.url)
        // The scan (here the one at start) lists it and leaves the megabyte to the importer.
        #expect(library.entry(id: "Long.docx")?.condition == .converting(tool: "pandoc"))
        #expect(library.importer.waitUntilIdle(timeout: 30))
        library.refresh()
        #expect(library.entry(id: "Long.docx")?.wordCount == 210_030)
        #expect(try library.readScript(id: "Long.docx").markers.count == 30)
        #expect(library.importer.conversionsRun == 0)
    }

    @Test func hangingConverterIsKilledAfterTheTimeout() throws {
        let dir = TemporaryDirectory()
        _ = dir.write("News.docx", "not really a document")
        let tools = TemporaryDirectory()
        try tools.writeExecutable("pandoc", "#!/bin/sh\nexec sleep 30\n")
        let started = Date()
        let library = try Self.idleLibrary(dir, path: tools.url.path, timeout: 0.5)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(library.skipped.first?.skipReason == "cannot read it: pandoc was still converting after 0 s and was stopped.")
    }
}
