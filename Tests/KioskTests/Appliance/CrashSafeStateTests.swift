import Foundation
import Prompter
import Testing

/// Kills a process that is rewriting the resume state, over and over, at whatever
/// point of a write it happens to be, and checks the state always reads back whole.
@Suite struct CrashSafeStateTests {
    @Test func stateSurvivesKillsDuringWrites() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rig-crash-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(ResumeStore.defaultFileName)
        for round in 0..<20 {
            try? FileManager.default.removeItem(at: file)
            let writer = try RigBinary.start(["_state-writer", "--dir", directory.path])
            // Let this writer get a different number of writes in each round, then kill
            // it wherever it is: the writes are back to back, so kills land mid-write.
            let target = Double(1 + (round % 5) * 8)
            let deadline = Date().addingTimeInterval(20)
            var seen = 0.0
            while seen < target && Date() < deadline {
                seen = (try? JSONDecoder().decode(ResumeState.self, from: Data(contentsOf: file)))?.offset ?? 0
            }
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
            #expect(seen >= target, "round \(round): the writer never got going")
            let state = try JSONDecoder().decode(ResumeState.self, from: Data(contentsOf: file))
            #expect(state.offset >= target, "round \(round)")
            #expect(state.wordIndex == Int(state.offset))
        }
        let store = ResumeStore(directory: directory)
        #expect(store.problem == nil)
        #expect(!FileManager.default.fileExists(atPath: store.file.badFileURL.path))
    }
}
