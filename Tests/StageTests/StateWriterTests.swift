import Foundation
import Testing
@testable import Stage

/// The writer thread behind the reading position and the clips' metadata: per file
/// the last write or removal asked for is what the disk ends with, privately.
@Suite struct StateWriterTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rig-state-writer-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func theLastWriteOfAFileWinsAndIsTheOwnersAlone() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("resume.json")
        let writer = StateWriter()
        defer { writer.stop() }
        writer.write(Data("one".utf8), to: file)
        writer.write(Data("two".utf8), to: file)
        writer.flush()
        #expect(try String(contentsOf: file, encoding: .utf8) == "two")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aRemovalAfterAWriteLeavesNoFileAndAWriteAfterItBringsItBack() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gone = dir.appendingPathComponent("gone.json")
        let back = dir.appendingPathComponent("back.json")
        let writer = StateWriter(name: "rig test writer")
        defer { writer.stop() }
        writer.write(Data("written".utf8), to: gone)
        writer.flush()
        writer.write(Data("again".utf8), to: gone)
        writer.remove(gone)
        writer.remove(back)
        writer.write(Data("back".utf8), to: back)
        writer.flush()
        #expect(!FileManager.default.fileExists(atPath: gone.path))
        #expect(try String(contentsOf: back, encoding: .utf8) == "back")
        // Removing a file that is not there is no trouble.
        writer.remove(dir.appendingPathComponent("never.json"))
        writer.flush()
    }
}
