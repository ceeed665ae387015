import Foundation
import Testing
@testable import Game

/// The session fuzzer's seeds (fuzz/corpus/session) are real session files; they must
/// keep loading, or the fuzzer would start from files the rig refuses at the header.
/// After a format change, `RIG_WRITE_FUZZ_SEEDS=1 swift test --filter FuzzSeedTests`
/// writes them again from the same sessions SessionFileTests saves.
@Suite struct FuzzSeedTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fuzz/corpus/session")

    @Test func theSessionSeedsLoad() throws {
        if ProcessInfo.processInfo.environment["RIG_WRITE_FUZZ_SEEDS"] == "1" {
            let history = try SessionFileTests().sessionWithHistory()
            try GameSessionFile.encode(history.saved).write(to: Self.folder.appendingPathComponent("review.json"))
            let fresh = try GameFixture.session(GameFixture.settings(perTurn: 1), select: "expressions.wink")
            try GameSessionFile.encode(fresh.saved).write(to: Self.folder.appendingPathComponent("ready.json"))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".json") }
        #expect(names.count >= 2)
        for name in names {
            let loaded = try GameSessionFile(url: Self.folder.appendingPathComponent(name)).load()
            #expect(loaded != nil, "\(name) did not load")
        }
    }
}
