import Foundation
import Testing
@testable import Game

@Suite struct ReadinessTests {
    func fresh(_ settings: GameSettings) throws -> GameSession {
        try GameSession(setup: GameFixture.setup(settings), catalog: GameFixture.catalog(),
                        random: GameRandom(seed: 1), wallClock: GameFixture.wall)
    }

    @Test func aFreshRecordedGameListsEveryUnmetCondition() throws {
        let session = try fresh(GameFixture.settings())
        #expect(session.sendBlockers == [.noActionSelected, .noConsent(player: "Ana"), .noCamera])
        #expect(session.sendBlockers.map(\.description) == [
            "Select an action", "Ana has not agreed to be recorded", "No camera is selected"])
    }

    @Test func eachConditionMetRemovesItsReason() throws {
        var session = try fresh(GameFixture.settings())
        _ = try session.perform(.select(ChallengeSelection(cardID: "expressions.wink")), at: 1)
        #expect(session.sendBlockers == [.noConsent(player: "Ana"), .noCamera])
        _ = try session.perform(.consent(player: "Ben", agreed: true), at: 1)
        #expect(session.sendBlockers == [.noConsent(player: "Ana"), .noCamera], "consent is per player")
        _ = try session.perform(.consent(player: "Ana", agreed: true), at: 1)
        _ = session.receive(.rigChanged(RigConditions(cameraID: "cam", cameraStreaming: false)), at: 1)
        #expect(session.sendBlockers == [.cameraNotStreaming])
        _ = session.receive(.rigChanged(RigConditions(cameraID: "cam", cameraStreaming: true)), at: 1)
        #expect(session.sendBlockers.isEmpty)
        #expect(throws: Never.self) { try session.perform(.send, at: 2) }
    }

    @Test func spokenPlayWithoutRecordingNeedsNoCameraNoConsentAndNoOuterDisplay() throws {
        var session = try fresh(GameFixture.settings(recording: false))
        _ = try session.perform(.select(ChallengeSelection(cardID: "expressions.wink")), at: 1)
        #expect(session.sendBlockers.isEmpty)
    }

    @Test func visualSZNeedsTheOuterDisplayEnabledAvailableAndPresenting() throws {
        var session = try GameFixture.session(GameFixture.settings(mode: .visual))
        var rig = GameFixture.readyRig
        rig.outerEnabled = false
        rig.participantViewShown = false
        _ = session.receive(.rigChanged(rig), at: 1)
        #expect(session.sendBlockers == [.outerDisplayDisabled])
        rig.outerAvailable = false
        _ = session.receive(.rigChanged(rig), at: 1)
        #expect(session.sendBlockers == [.outerDisplayDisabled, .outerDisplayUnavailable])
        rig.outerEnabled = true
        rig.outerAvailable = true
        _ = session.receive(.rigChanged(rig), at: 1)
        #expect(session.sendBlockers == [.outerDisplayNotPresenting], "requested is not presented")
        rig.participantViewShown = true
        _ = session.receive(.rigChanged(rig), at: 1)
        #expect(session.sendBlockers.isEmpty)
    }

    @Test func refusedSendSaysWhyAndChangesNothing() throws {
        var session = try fresh(GameFixture.settings())
        #expect(throws: GameRefusal.notReady([.noActionSelected, .noConsent(player: "Ana"), .noCamera])) {
            try session.perform(.send, at: 1)
        }
        #expect(session.phase == .ready)
        #expect(session.attempts.isEmpty)
    }

    @Test func anUnresolvedReviewBlocksSend() throws {
        var session = try GameFixture.session()
        var rig = RigSimulator()
        try rig.run(&session, until: .review)
        #expect(session.sendBlockers == [.unresolvedReview])
        _ = try session.perform(.judge(.fail), at: rig.now)
        #expect(session.sendBlockers == [.phase(.complete)])
        _ = try session.perform(.next, at: rig.now)
        #expect(session.sendBlockers.isEmpty)
    }

    @Test func aCardTakenOutOfPlayBlocksSend() throws {
        var session = try GameFixture.session()
        var settings = session.settings
        settings.groups = [.expressions]
        _ = try session.perform(.changeSettings(settings), at: 1)
        #expect(session.sendBlockers == [.actionNotAvailable("hands.fingers-up")])
    }
}
