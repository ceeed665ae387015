import Foundation
import Testing
@testable import Durable

@Suite struct AtomicFileTests {
    @Test func writesAndReplacesLeavingNoTemporaryFiles() throws {
        let dir = TemporaryDirectory()
        let file = dir.path("state.json")
        try AtomicFile.write(Data("first".utf8), to: file)
        #expect(dir.read("state.json") == "first")
        try AtomicFile.write(Data("second, longer".utf8), to: file)
        #expect(dir.read("state.json") == "second, longer")
        try AtomicFile.write(Data(), to: file)
        #expect(dir.read("state.json") == "")
        #expect(dir.names() == ["state.json"])
    }

    @Test func keepsThePermissionsOfTheFileItReplaces() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("private.json", "x")
        chmod(file.path, 0o600)
        try AtomicFile.write(Data("y".utf8), to: file)
        var info = stat()
        #expect(stat(file.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test func anOwnerOnlyWriteIsPrivateWhateverTheOldFilesMode() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("resume.json", "x")
        chmod(file.path, 0o644)
        try AtomicFile.write(Data("y".utf8), to: file, access: .ownerOnly)
        var info = stat()
        #expect(stat(file.path, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o600)
        #expect(dir.read("resume.json") == "y")
        #expect(dir.names() == ["resume.json"])
    }

    @Test func anOwnerOnlyFolderIsMadeWithItsParentsAndAFolderThereIsKept() throws {
        let dir = TemporaryDirectory()
        let nested = dir.path("state/game").path
        try AtomicFile.createOwnerOnlyFolder(nested)
        var info = stat()
        for folder in [dir.path("state").path, nested] {
            #expect(stat(folder, &info) == 0 && info.st_mode & 0o7777 == 0o700, "\(folder)")
        }
        // Already there: its mode is the operator's (or systemd's StateDirectoryMode=).
        chmod(nested, 0o750)
        try AtomicFile.createOwnerOnlyFolder(nested)
        #expect(stat(nested, &info) == 0 && info.st_mode & 0o7777 == 0o750)
        // A file in the way is an error, not a folder.
        dir.write("taken", "x")
        #expect(throws: AtomicFileError.self) { try AtomicFile.createOwnerOnlyFolder(dir.path("taken").path) }
    }

    @Test func failureNamesThePathAndLeavesTheOldFile() throws {
        let dir = TemporaryDirectory()
        do {
            try AtomicFile.write(Data("x".utf8), to: dir.path("missing/dir/state.json"))
            Issue.record("write into a missing directory succeeded")
        } catch {
            #expect(error.path.contains("missing/dir"))
            #expect(error.description.contains("No such file"))
        }
        // A directory in the way: rename fails, the directory stays, no temp is left.
        try FileManager.default.createDirectory(at: dir.path("taken"), withIntermediateDirectories: false)
        dir.write("taken/keep.txt", "keep")
        #expect(throws: AtomicFileError.self) { try AtomicFile.write(Data("x".utf8), to: dir.path("taken")) }
        #expect(dir.read("taken/keep.txt") == "keep")
        #expect(dir.names() == ["taken"])
    }
}

@Test func leftoversOfDeadWritersAreRemovedAndLiveOnesKept() throws {
    let dir = TemporaryDirectory()
    let url = dir.url
    let dead = ".resume.json.2147483646.12345.tmp"
    let live = ".resume.json.\(getpid()).777.tmp"
    for name in [dead, live, "notes.txt", ".hidden.tmp"] {
        try Data("x".utf8).write(to: url.appendingPathComponent(name))
    }
    #expect(AtomicFile.removeLeftovers(in: url) == [dead])
    let left = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    #expect(left == [".hidden.tmp", live, "notes.txt"].sorted())
}

@Test func aRenameMovesIntoPlaceAndAFailedOneKeepsTheSource() throws {
    let dir = TemporaryDirectory()
    try Data("take".utf8).write(to: dir.url.appendingPathComponent(".take.mp4.partial"))
    try AtomicFile.rename(dir.url.path + "/.take.mp4.partial", to: dir.url.path + "/take.mp4")
    #expect(dir.names() == ["take.mp4"])
    // Into a folder that is not there: the error names the target and the file stays.
    #expect(throws: AtomicFileError.self) {
        try AtomicFile.rename(dir.url.path + "/take.mp4", to: dir.url.path + "/gone/take.mp4")
    }
    #expect(dir.read("take.mp4") == "take")
}
