import Foundation
import Testing
@testable import Prompter

@Suite struct ScriptLibraryListingTests {
    @Test func scriptsAreNewestFirstAndFoldersAlphabetical() throws {
        let dir = TemporaryDirectory()
        dir.write("Old.txt", "old", modified: 1_000)
        dir.write("New.md", "# new", modified: 3_000)
        dir.write("gamma 10/Mid.txt", "mid", modified: 2_000)
        dir.write("alpha/a.txt", "a", modified: 500)
        dir.write("Beta/b.txt", "b", modified: 400)
        dir.write("gamma 9/c.txt", "c", modified: 300)
        let library = try ScriptLibrary(root: dir.url)
        #expect(library.scripts().map(\.id) == ["New.md", "gamma 10/Mid.txt", "Old.txt", "alpha/a.txt",
                                                "Beta/b.txt", "gamma 9/c.txt"])
        #expect(library.folders() == ["alpha", "Beta", "gamma 9", "gamma 10"])
    }

    @Test func selectionsFilterByFolder() throws {
        let dir = TemporaryDirectory()
        dir.write("Top.txt", "top", modified: 10)
        dir.write("Talks/Keynote.md", "key", modified: 20)
        dir.write("Talks/Panel.txt", "panel", modified: 30)
        let library = try ScriptLibrary(root: dir.url)
        #expect(library.scripts(in: .allScripts).count == 3)
        #expect(library.scripts(in: .topLevel).map(\.id) == ["Top.txt"])
        #expect(library.scripts(in: .folder("Talks")).map(\.id) == ["Talks/Panel.txt", "Talks/Keynote.md"])
        let keynote = try #require(library.entry(id: "Talks/Keynote.md"))
        #expect(keynote.title == "Keynote")
        #expect(keynote.folder == "Talks")
        #expect(keynote.format == .markdown)
    }

    @Test func onlyScriptsOneLevelDeepAreListed() throws {
        let dir = TemporaryDirectory()
        dir.write("a.txt", "a")
        dir.write("photo.jpg", [0xFF, 0xD8, 0xFF])
        dir.write(".hidden.txt", "h")
        dir.write("F/G/deep.txt", "too deep")
        dir.write(".trash/x.txt", "x")
        let library = try ScriptLibrary(root: dir.url)
        #expect(library.scripts().map(\.id) == ["a.txt"])
        #expect(library.folders() == ["F"])
    }

    @Test func entriesCarryWordCountAndSize() throws {
        let dir = TemporaryDirectory()
        dir.write("Plain.txt", "one two three\nfour")
        dir.write("Marked.md", "# Title here\n\n**bold** and [a link](http://x.org) — end")
        let library = try ScriptLibrary(root: dir.url)
        #expect(library.entry(id: "Plain.txt")?.wordCount == 4)
        #expect(library.entry(id: "Plain.txt")?.size == 18)
        #expect(library.entry(id: "Marked.md")?.wordCount == 7)
    }

    @Test func searchIsCaseInsensitiveOverTitleAndContent() throws {
        let dir = TemporaryDirectory()
        dir.write("Launch Day.txt", "Welcome back to the channel", modified: 1)
        dir.write("Other.txt", "We talk about LAUNCH plans", modified: 2)
        dir.write("Notes/Third.md", "**Lau**nch", modified: 3)
        dir.write("Unrelated.txt", "nothing here", modified: 4)
        let library = try ScriptLibrary(root: dir.url)
        #expect(library.search("launch").map(\.id) == ["Notes/Third.md", "Other.txt", "Launch Day.txt"])
        #expect(library.search("CHANNEL").map(\.id) == ["Launch Day.txt"])
        #expect(library.search("launch", in: .topLevel).map(\.id) == ["Other.txt", "Launch Day.txt"])
        #expect(library.search("  ").count == 4)
        #expect(library.search("zebra").isEmpty)
    }

    @Test func refreshPicksUpOutsideChanges() throws {
        let dir = TemporaryDirectory()
        let library = try ScriptLibrary(root: dir.url)
        #expect(library.scripts().isEmpty)
        dir.write("From USB.txt", "hello there")
        library.refresh()
        #expect(library.entry(id: "From USB.txt")?.wordCount == 2)
        dir.write("From USB.txt", "hello there and more", modified: 5_000)
        library.refresh()
        #expect(library.entry(id: "From USB.txt")?.wordCount == 4)
    }

    @Test func missingRootIsCreated() throws {
        let dir = TemporaryDirectory()
        let library = try ScriptLibrary(root: dir.path("state/scripts"))
        #expect(dir.exists("state/scripts"))
        #expect(library.scripts().isEmpty)
    }
}

@Suite struct ScriptLibraryBadFileTests {
    @Test func invalidUTF8IsRepairedAndMarked() throws {
        let dir = TemporaryDirectory()
        dir.write("Broken.txt", Array("caf".utf8) + [0xE9] + Array(" ok".utf8))
        let library = try ScriptLibrary(root: dir.url)
        #expect(library.entry(id: "Broken.txt")?.condition == .repaired)
        #expect(library.scripts().map(\.id) == ["Broken.txt"])
        let script = try library.readScript(id: "Broken.txt")
        #expect(script.repaired)
        #expect(script.source == "caf\u{FFFD} ok")
        #expect(ScriptCondition.repaired.message != nil)
    }

    @Test func binaryFilesAreSkippedWithTheReason() throws {
        let dir = TemporaryDirectory()
        dir.write("Image.txt", [0x89, 0x50, 0x4E, 0x47, 0x00, 0x00, 0x01])
        dir.write("Fine.txt", "fine")
        let library = try ScriptLibrary(root: dir.url)
        #expect(library.scripts().map(\.id) == ["Fine.txt"])
        #expect(library.skipped.map(\.id) == ["Image.txt"])
        #expect(library.skipped.first?.condition.message?.contains("binary") == true)
        #expect(throws: ScriptLibraryError.binary(id: "Image.txt")) { try library.readScript(id: "Image.txt") }
    }

    @Test func oversizedFilesAreRefusedWithAMessage() throws {
        let dir = TemporaryDirectory()
        dir.write("Huge.txt", String(repeating: "word ", count: 400))
        let library = try ScriptLibrary(root: dir.url, maxScriptBytes: 1024)
        #expect(library.skipped.first?.condition == .tooLarge(size: 2000, limit: 1024))
        do {
            _ = try library.readScript(id: "Huge.txt")
            Issue.record("an oversized script was opened")
        } catch {
            #expect(error == .tooLarge(id: "Huge.txt", size: 2000, limit: 1024))
            #expect(error.description.contains("1 KB"))
        }
        library.maxScriptBytes = 4096
        library.refresh()
        #expect(library.entry(id: "Huge.txt")?.condition == .ok)
        #expect(try library.readScript(id: "Huge.txt").wordCount == 400)
    }

    @Test func emptyFilesShowAsEmpty() throws {
        let dir = TemporaryDirectory()
        dir.write("Empty.md", "")
        let library = try ScriptLibrary(root: dir.url)
        let entry = try #require(library.entry(id: "Empty.md"))
        #expect(entry.condition == .ok)
        #expect(entry.wordCount == 0)
        let script = try library.readScript(id: "Empty.md")
        #expect(script.readingText.isEmpty)
        #expect(!script.repaired)
    }

    @Test func utf16WithByteOrderMarkIsText() throws {
        let dir = TemporaryDirectory()
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "Hé!".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        dir.write("Windows.txt", bytes)
        let library = try ScriptLibrary(root: dir.url)
        #expect(try library.readScript(id: "Windows.txt").source == "Hé!")
    }

    @Test func idsCannotLeaveTheLibrary() throws {
        let dir = TemporaryDirectory()
        dir.write("inside/a.txt", "a")
        let library = try ScriptLibrary(root: dir.path("inside"))
        #expect(throws: ScriptLibraryError.notFound(id: "../inside/a.txt")) {
            try library.readScript(id: "../inside/a.txt")
        }
        #expect(throws: ScriptLibraryError.notFound(id: "nope.txt")) { try library.readScript(id: "nope.txt") }
    }

    @Test func markdownReadsAsPlainText() throws {
        let dir = TemporaryDirectory()
        dir.write("Talk.md", "# Hello *world*\n\nSee [the docs](https://example.org).")
        let library = try ScriptLibrary(root: dir.url)
        let script = try library.readScript(id: "Talk.md")
        #expect(script.readingText == "Hello world\n\nSee the docs.")
        #expect(script.source.hasPrefix("# Hello"))
    }
}
