import Foundation
import Testing
@testable import Game

@Suite struct ParticipantPresentationTests {
    @Test func theParticipantSeesStatusCountdownRecordingAndCueOnly() throws {
        var session = try GameFixture.session(GameFixture.settings(mode: .visual), rule: .host(.notSaid))
        #expect(session.participantPresentation(at: 50)
            == ParticipantPresentation(status: "Waiting for the host", countdown: nil, recording: false, cue: nil),
            "a selected but unsent challenge shows nothing of itself")
        var rig = RigSimulator()
        try rig.run(&session, until: .leadIn)
        #expect(session.participantPresentation(at: rig.now).status == "Get ready")
        #expect(session.participantPresentation(at: rig.now).recording)
        try rig.run(&session, until: .speech)
        #expect(session.participantPresentation(at: rig.now).status == "Listen…")
        #expect(session.participantPresentation(at: rig.now).cue == nil)
        try rig.run(&session, until: .cue)
        #expect(session.participantPresentation(at: rig.now).cue == .z)
        try rig.run(&session, until: .response)
        let onset = try #require(session.attempts[0].timing.cueOnset)
        let early = session.participantPresentation(at: onset + 0.1)
        #expect(early.status == "Your turn" && early.countdown == 3 && early.cue == .z)
        let later = session.participantPresentation(at: onset + 1.2)
        #expect(later.countdown == 2 && later.cue == nil, "the letter lasts its 0.75 s")
        try rig.run(&session, until: .tail)
        #expect(session.participantPresentation(at: rig.now).status == "Time's up")
        try rig.run(&session, until: .review)
        #expect(session.participantPresentation(at: rig.now).status == "Waiting for the host")
        #expect(!session.participantPresentation(at: rig.now).recording)
    }

    /// The frame drawn ahead for the cue shows what the cue phase will: with a participant
    /// touchscreen, its Tap to stop too, so the frame ahead is the one flipped.
    @Test func theUpcomingCueIsWhatTheCuePhaseShows() throws {
        var session = try GameFixture.session(GameFixture.settings(mode: .visual), rule: .host(.notSaid))
        var touch = GameFixture.readyRig
        touch.participantTouch = true
        _ = session.receive(.rigChanged(touch), at: 49)
        var rig = RigSimulator()
        try rig.run(&session, until: .speech)
        let upcoming = try #require(session.upcomingCue)
        #expect(upcoming.presentation.stop)
        try rig.run(&session, until: .cue)
        #expect(session.participantPresentation(at: rig.now) == upcoming.presentation)
    }
}
