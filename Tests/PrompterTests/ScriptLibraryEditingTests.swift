import Foundation
import Testing
@testable import Prompter

@Suite struct ScriptLibraryEditingTests {
    @Test func createNumbersUntitledScripts() throws {
        let dir = TemporaryDirectory()
        let library = try ScriptLibrary(root: dir.url)
        #expect(try library.createScript().title == "Untitled")
        #expect(try library.createScript().title == "Untitled 2")
        #expect(try library.createScript(text: "hi").id == "Untitled 3.txt")
        try library.createFolder(named: "Talks")
        #expect(try library.createScript(in: "Talks").id == "Talks/Untitled.txt")
        #expect(dir.read("Untitled 3.txt") == "hi")
    }

    @Test func createInAMissingFolderFails() throws {
        let dir = TemporaryDirectory()
        let library = try ScriptLibrary(root: dir.url)
        #expect(throws: ScriptLibraryError.folderNotFound("Nope")) { try library.createScript(in: "Nope") }
    }

    @Test func renameKeepsTheExtensionAndRefusesClashes() throws {
        let dir = TemporaryDirectory()
        dir.write("Draft.md", "text")
        dir.write("Taken.txt", "other")
        let library = try ScriptLibrary(root: dir.url)
        let renamed = try library.rename(id: "Draft.md", to: "  Final  ")
        #expect(renamed.id == "Final.md")
        #expect(dir.read("Final.md") == "text")
        #expect(!dir.exists("Draft.md"))
        #expect(throws: ScriptLibraryError.nameTaken("taken")) { try library.rename(id: "Final.md", to: "taken") }
        #expect(try library.rename(id: "Final.md", to: "FINAL").id == "FINAL.md")
    }

    @Test func renameRefusesUnsafeNames() throws {
        let dir = TemporaryDirectory()
        dir.write("A.txt", "a")
        let library = try ScriptLibrary(root: dir.url)
        for bad in ["", "   ", "a/b", ".hidden", "tab\u{7}bell"] {
            #expect(throws: ScriptLibraryError.self) { try library.rename(id: "A.txt", to: bad) }
        }
        #expect(dir.exists("A.txt"))
    }

    @Test func duplicateNamesLikeAFileManager() throws {
        let dir = TemporaryDirectory()
        dir.write("Demo.txt", "same words")
        let library = try ScriptLibrary(root: dir.url)
        #expect(try library.duplicate(id: "Demo.txt").title == "Demo copy")
        #expect(try library.duplicate(id: "Demo.txt").title == "Demo copy 2")
        #expect(try library.duplicate(id: "Demo copy.txt").title == "Demo copy 3")
        #expect(dir.read("Demo copy 2.txt") == "same words")
    }

    @Test func moveToAFolderAndBackRenamingOnClash() throws {
        let dir = TemporaryDirectory()
        dir.write("Demo.txt", "top")
        dir.write("Talks/Demo.md", "in folder")
        let library = try ScriptLibrary(root: dir.url)
        let moved = try library.move(id: "Demo.txt", toFolder: "Talks")
        #expect(moved.id == "Talks/Demo 2.txt")
        #expect(moved.folder == "Talks")
        let back = try library.move(id: "Talks/Demo.md", toFolder: nil)
        #expect(back.id == "Demo.md")
        #expect(dir.read("Demo.md") == "in folder")
    }

    @Test func deleteRemovesTheFile() throws {
        let dir = TemporaryDirectory()
        dir.write("Gone.txt", "bye")
        let library = try ScriptLibrary(root: dir.url)
        try library.delete(id: "Gone.txt")
        #expect(!dir.exists("Gone.txt"))
        #expect(library.scripts().isEmpty)
        #expect(throws: ScriptLibraryError.notFound(id: "Gone.txt")) { try library.delete(id: "Gone.txt") }
    }

    @Test func deletingAFolderKeepsItsScripts() throws {
        let dir = TemporaryDirectory()
        dir.write("Intro.txt", "top intro")
        dir.write("Old/Intro.md", "folder intro")
        dir.write("Old/Outro.txt", "outro")
        dir.write("Old/cover.png", [0x89, 0x50])
        let library = try ScriptLibrary(root: dir.url)
        let moved = try library.deleteFolder("Old")
        #expect(Set(moved.map(\.entry.id)) == ["Intro 2.md", "Outro.txt"])
        #expect(moved.first { $0.entry.id == "Intro 2.md" }?.oldID == "Old/Intro.md")
        #expect(!dir.exists("Old"))
        #expect(dir.read("Intro.txt") == "top intro")
        #expect(dir.read("Intro 2.md") == "folder intro")
        #expect(dir.exists("cover.png"))
        #expect(library.folders().isEmpty)
        #expect(library.scripts(in: .allScripts).count == 3)
    }

    @Test func foldersCanBeCreatedAndRenamed() throws {
        let dir = TemporaryDirectory()
        let library = try ScriptLibrary(root: dir.url)
        try library.createFolder(named: "Drafts")
        #expect(throws: ScriptLibraryError.nameTaken("drafts")) { try library.createFolder(named: "drafts") }
        try library.createScript(in: "Drafts")
        try library.renameFolder("Drafts", to: "Final")
        #expect(library.folders() == ["Final"])
        #expect(library.scripts(in: .folder("Final")).map(\.id) == ["Final/Untitled.txt"])
    }

    @Test func saveIsAtomicAndUpdatesTheEntry() throws {
        let dir = TemporaryDirectory()
        dir.write("Edit.txt", "before", modified: 1_000)
        let library = try ScriptLibrary(root: dir.url)
        let saved = try library.save(id: "Edit.txt", text: "after the edit")
        #expect(dir.read("Edit.txt") == "after the edit")
        #expect(saved.wordCount == 3)
        #expect(saved.modified > Date(timeIntervalSince1970: 1_000))
        #expect(dir.names() == ["Edit.txt"])     // no temp file left behind
        #expect(throws: ScriptLibraryError.notFound(id: "Missing.txt")) {
            try library.save(id: "Missing.txt", text: "x")
        }
    }
}
