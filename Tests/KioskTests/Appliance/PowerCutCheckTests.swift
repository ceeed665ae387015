import Foundation
import Testing
@testable import Kiosk

/// The power-cut test's two halves on the host, without a cut: what the writer leaves
/// after its logged rounds passes the check, and each kind of lost or torn state fails
/// it, naming the file. (vrig/tests/power_cut.py makes the real cuts.)
@Suite(.serialized) struct PowerCutCheckTests {
    static let seed = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fuzz/corpus/session/review.json")

    func written(rounds: Int) throws -> (root: URL, log: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-power-cut-\(UUID().uuidString.prefix(8))")
        let log = root.path + ".log"
        try PowerCutCommand.write(root: root, log: log, seed: Self.seed, take: "take-0", rounds: rounds)
        return (root, log)
    }

    func problems(_ root: URL, _ log: String) -> [String] {
        PowerCutCheck(root: root, log: log).evaluate().report["problems"] as? [String] ?? ["no report"]
    }

    @Test func theWritersFilesAfterTheLoggedRoundPass() throws {
        let (root, log) = try written(rounds: 3)
        let (ok, report) = PowerCutCheck(root: root, log: log).evaluate()
        #expect(ok, "\(report)")
        #expect(report["loggedRound"] as? Int == 3)
        #expect(report["script"] as? Int == 3 && report["session"] as? Int == 3 && report["resume"] as? Int == 3)
    }

    @Test func aTornScriptFails() throws {
        let (root, log) = try written(rounds: 2)
        let script = root.appendingPathComponent("scripts/\(PowerCutCommand.scriptID)")
        try Data(PowerCutCommand.scriptText(round: 2).utf8.prefix(5000)).write(to: script)
        #expect(problems(root, log).contains { $0.hasPrefix("the script is not round") })
    }

    @Test func anOlderStateThanTheLoggedRoundFails() throws {
        let (root, log) = try written(rounds: 2)
        // The log claims a round the files never saw: the files are "lost" state.
        try Data("round 5 frames 0\n".utf8).write(to: URL(fileURLWithPath: log))
        let found = problems(root, log)
        #expect(found.contains { $0.hasPrefix("resume state holds round 2") })
        #expect(found.contains { $0.hasPrefix("the game session holds round 2") })
    }

    @Test func anUnreadableSessionFails() throws {
        let (root, log) = try written(rounds: 1)
        try Data("{\"format\": 1, \"setup\":".utf8).write(to: root.appendingPathComponent("game/session.json"))
        #expect(problems(root, log).contains { $0.hasPrefix("the game session:") })
    }
}
