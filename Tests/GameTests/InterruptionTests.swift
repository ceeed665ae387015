import Foundation
import Testing
@testable import Game

@Suite struct InterruptionTests {
    static let reasons: [InterruptionReason] = [.participantStop, .vtSwitch, .shutdown, .cameraLost,
                                                .cameraChanged, .outerDisplayLost, .outerDisplayOff]

    func expectCancelled(_ session: GameSession, _ effects: [GameEffect], reason: InterruptionReason,
                         recorded: Bool = true) {
        let expected: [GameEffect] = recorded
            ? [.cancel(generation: 1), .discardMedia(attempt: 1), .save] : [.cancel(generation: 1), .save]
        #expect(effects == expected)
        #expect(session.phase == .interrupted)
        #expect(session.attempts[0].interruption == reason)
        #expect(session.attempts[0].verdict == .void)
        #expect(session.attempts[0].media == (recorded ? .discarded : MediaState.none))
        #expect(session.challengesPlayedThisTurn == 0)
        #expect(session.allowedActions.contains(.retry))
    }

    @Test(arguments: reasons, [GamePhase.preparing, .leadIn, .speech, .response, .tail])
    func eachInterruptionCancelsInEveryCapturePhase(reason: InterruptionReason, phase: GamePhase) throws {
        var session = try GameFixture.session()
        var rig = RigSimulator()
        try rig.run(&session, until: phase)
        let effects = session.receive(.interrupt(reason), at: rig.now)
        expectCancelled(session, effects, reason: reason)
    }

    @Test func deviceLossesAreNoticedFromTheRigsReports() throws {
        var cases: [(RigConditions, InterruptionReason)] = []
        var rig = GameFixture.readyRig
        rig.cameraStreaming = false
        cases.append((rig, .cameraLost))
        rig = GameFixture.readyRig
        rig.cameraID = "usb-cam-1"
        cases.append((rig, .cameraChanged))
        rig = GameFixture.readyRig
        rig.outerAvailable = false
        rig.participantViewShown = false
        cases.append((rig, .outerDisplayLost))
        rig = GameFixture.readyRig
        rig.outerEnabled = false
        cases.append((rig, .outerDisplayOff))
        for (conditions, reason) in cases {
            var session = try GameFixture.session()
            var sim = RigSimulator()
            try sim.run(&session, until: .speech)
            let effects = session.receive(.rigChanged(conditions), at: sim.now)
            expectCancelled(session, effects, reason: reason)
        }
    }

    @Test func aCameraLossDoesNotStopSpokenPlayWithoutRecording() throws {
        var session = try GameFixture.session(GameFixture.settings(recording: false))
        var sim = RigSimulator()
        try sim.run(&session, until: .response)
        #expect(session.receive(.rigChanged(RigConditions.unknown), at: sim.now) == [.cancel(generation: 1), .save],
                "losing the participant's display still stops it")
        #expect(session.attempts[0].interruption == .outerDisplayLost)
        var other = try GameFixture.session(GameFixture.settings(recording: false))
        var rig = GameFixture.readyRig
        rig.cameraStreaming = false
        var sim2 = RigSimulator()
        try sim2.run(&other, until: .response)
        #expect(other.receive(.rigChanged(rig), at: sim2.now).isEmpty)
        #expect(other.phase == .response)
    }

    @Test func withdrawnConsentStopsThatPlayersRecording() throws {
        var session = try GameFixture.session()
        var sim = RigSimulator()
        try sim.run(&session, until: .response)
        #expect(try session.perform(.consent(player: "Ben", agreed: false), at: sim.now).isEmpty)
        let effects = try session.perform(.consent(player: "Ana", agreed: false), at: sim.now)
        expectCancelled(session, effects, reason: .consentWithdrawn)
        #expect(session.sendBlockers.contains(.noConsent(player: "Ana")))
    }

    @Test func aFailedRecordingIsAnInterruptionNotAResult() throws {
        var session = try GameFixture.session()
        var sim = RigSimulator()
        try sim.run(&session, until: .tail)
        let effects = session.receive(.recordingFailed(generation: 1, reason: "disk full"), at: sim.now)
        expectCancelled(session, effects, reason: .recordingFailed("disk full"))
    }

    @Test func retryOffersTheSameChallengeWithoutUsingAScoredOne() throws {
        var session = try GameFixture.session(rule: .draw)
        var sim = RigSimulator()
        try sim.run(&session, until: .speech)
        _ = try session.perform(.stop, at: sim.now)
        _ = try session.perform(.select(ChallengeSelection(cardID: "expressions.wink")), at: sim.now)
        #expect(try session.perform(.retry, at: sim.now) == [.save])
        #expect(session.phase == .ready)
        #expect(session.selection == ChallengeSelection(cardID: "hands.fingers-up", rule: .draw))
        var again = RigSimulator(start: 300)
        try again.run(&session, until: .review)
        #expect(session.attempts.count == 2)
        #expect(session.attempts[1].snapshot.challenge == 1)
        #expect(session.attempts[1].snapshot.player == "Ana")
        #expect(session.attempts[1].generation == 2)
    }

    @Test func anInterruptWithNoAttemptRunningChangesNothing() throws {
        var session = try GameFixture.session()
        #expect(session.receive(.interrupt(.participantStop), at: 1).isEmpty)
        #expect(session.phase == .ready)
        #expect(session.attempts.isEmpty)
    }
}
