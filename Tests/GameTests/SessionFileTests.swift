import Durable
import Foundation
import Testing
@testable import Game

@Suite struct SessionFileTests {
    /// Two judged attempts, a third awaiting review, settings changed from the defaults.
    func sessionWithHistory() throws -> GameSession {
        var settings = GameFixture.settings(perTurn: 1)
        settings.responseWindow = 4
        settings.seatedOnly = true
        var session = try GameFixture.session(settings, select: "expressions.wink")
        for (index, verdict) in [Verdict.pass, .fail].enumerated() {
            var rig = RigSimulator(start: 100 + Double(index) * 50)
            try rig.run(&session, until: .review)
            _ = try session.perform(.judge(verdict), at: rig.now)
            _ = try session.perform(.next, at: rig.now)
        }
        var rig = RigSimulator(start: 300)
        try rig.run(&session, until: .review)
        return session
    }

    @Test func aRestartRestoresRosterProgressSettingsScoresAndThePendingReview() throws {
        let directory = TemporaryDirectory()
        let file = GameSessionFile(url: directory.path("game/session.json"))
        let before = try sessionWithHistory()
        try file.save(before.saved)

        let loaded = try #require(try file.load())
        let (after, effects) = try GameSession.restore(loaded, catalog: GameFixture.catalog(),
                                                       wallClock: GameFixture.wall)
        #expect(effects.isEmpty)
        #expect(after.roster == ["Ana", "Ben", "Cy"])
        #expect(after.setup.host == "Hal")
        #expect(after.settings == before.settings)
        #expect(after.turn == 2 && after.currentPlayer == "Cy")
        #expect(after.attempts == before.attempts)
        #expect(after.scoreboard == before.scoreboard)
        #expect(after.phase == .review)
        #expect(after.pendingReview?.id == 3)
        #expect(after.selection == before.selection)
        #expect(after.random == before.random)
        #expect(directory.names() == ["game"])
    }

    @Test func consentAndCameraReadinessAreNeverRestored() throws {
        let directory = TemporaryDirectory()
        let file = GameSessionFile(url: directory.path("session.json"))
        var session = try sessionWithHistory()
        _ = try session.perform(.judge(.pass), at: 400)
        _ = try session.perform(.next, at: 400)
        #expect(session.sendBlockers.isEmpty)
        try file.save(session.saved)
        var after = try GameSession.restore(try #require(try file.load()), catalog: GameFixture.catalog(),
                                            wallClock: GameFixture.wall).session
        #expect(after.rig == .unknown)
        #expect(after.sendBlockers == [.noConsent(player: "Ana"), .noCamera])
        // The judged review carries on after the restart.
        _ = after.receive(.rigChanged(GameFixture.readyRig), at: 1)
        _ = try after.perform(.consent(player: "Ana", agreed: true), at: 1)
        #expect(after.sendBlockers.isEmpty)
        #expect(after.scoreboard.points(of: "Cy") == 1)
    }

    @Test func aJudgementAfterTheRestartCompletesThePendingReview() throws {
        let directory = TemporaryDirectory()
        let file = GameSessionFile(url: directory.path("session.json"))
        try file.save(try sessionWithHistory().saved)
        var after = try GameSession.restore(try #require(try file.load()), catalog: GameFixture.catalog(),
                                            wallClock: GameFixture.wall).session
        #expect(try after.perform(.judge(.pass), at: 5) == [.save])
        #expect(after.scoreboard.players.map(\.points) == [1, 0, 1])
    }

    @Test func anAttemptCutOffByTheShutdownComesBackInterrupted() throws {
        let directory = TemporaryDirectory()
        let file = GameSessionFile(url: directory.path("session.json"))
        var session = try GameFixture.session()
        var rig = RigSimulator()
        try rig.run(&session, until: .response)
        try file.save(session.saved)
        #expect(session.phase == .response, "saving does not stop the running attempt")

        let (after, effects) = try GameSession.restore(try #require(try file.load()), catalog: GameFixture.catalog(),
                                                       wallClock: GameFixture.wall)
        #expect(effects == [.discardMedia(attempt: 1)])
        #expect(after.phase == .interrupted)
        #expect(after.attempts[0].interruption == .shutdown)
        #expect(after.attempts[0].verdict == .void)
        #expect(after.activeGeneration == nil)
        var resumed = after
        _ = try resumed.perform(.retry, at: 1)
        #expect(resumed.selection?.cardID == "hands.fingers-up")
        #expect(resumed.challengesPlayedThisTurn == 0)
    }

    @Test func aKillDuringTheWriteLeavesTheOldFileToRead() throws {
        let directory = TemporaryDirectory()
        let url = directory.path("session.json")
        let file = GameSessionFile(url: url)
        let old = try sessionWithHistory()
        try file.save(old.saved)

        // The writer died after writing half of the new file to its temp file: the temp
        // file is there, the rename never happened. Its pid is a process that has ended.
        var newer = old
        _ = try newer.perform(.judge(.pass), at: 500)
        let bytes = try GameSessionFile.encode(newer.saved)
        let deadPID = try endedProcessID()
        let temp = directory.path(".session.json.\(deadPID).12345.tmp")
        try bytes.prefix(bytes.count / 2).write(to: temp)

        let loaded = try #require(try file.load())
        #expect(loaded == old.saved)
        #expect(loaded.phase == .review)
        #expect(directory.names() == ["session.json"], "the dead writer's temp file is removed")
    }

    @Test func aTornFileIsReportedNotTrusted() throws {
        let directory = TemporaryDirectory()
        let url = directory.path("session.json")
        let bytes = try GameSessionFile.encode(try sessionWithHistory().saved)
        try bytes.prefix(bytes.count / 2).write(to: url)
        #expect(throws: SessionFileError.self) { try GameSessionFile(url: url).load() }
        try Data(#"{"format": 9}"#.utf8).write(to: url)
        #expect(throws: SessionFileError.unsupportedFormat(path: url.path, format: 9)) {
            try GameSessionFile(url: url).load()
        }
        #expect(try GameSessionFile(url: directory.path("none.json")).load() == nil)
    }

    @Test func aSuccessfulWriteReplacesTheFileAndLeavesNoTemp() throws {
        let directory = TemporaryDirectory()
        let url = directory.path("session.json")
        try AtomicFile.write(Data("old".utf8), to: url)
        try AtomicFile.write(Data("new".utf8), to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == "new")
        #expect(directory.names() == ["session.json"])
        // A temp file of a live writer (this process) is left alone.
        let live = directory.path(".session.json.\(getpid()).1.tmp")
        try Data("partial".utf8).write(to: live)
        #expect(AtomicFile.removeLeftovers(of: url).isEmpty)
        #expect(directory.names() == [".session.json.\(getpid()).1.tmp", "session.json"])
    }

    /// The pid of a child that has exited and been reaped: certainly no running writer.
    func endedProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}
