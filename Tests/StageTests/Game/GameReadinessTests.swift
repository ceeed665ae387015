import Foundation
import Game
import Testing
@testable import Stage

/// Readiness tells the whole truth before Send: every condition that would void an
/// attempt at once refuses Send with its reason, and what only limits the attempt (the
/// participant cannot stop it) is a warning that leaves Send on.
@Suite struct GameReadinessTests {
    /// A recorder that can always record, and says whether a microphone delivers.
    final class MicrophoneRecording: GameRecordingPort {
        var soundProblem: String?
        private(set) var started: [UInt64] = []
        init(soundProblem: String?) { self.soundProblem = soundProblem }
        var unavailableReason: String? { nil }
        func start(generation: UInt64, attempt: Int) { started.append(generation) }
        func stop(generation: UInt64) {}
        func cancel(generation: UInt64) {}
        func discard(attempt: Int) {}
        func delete(attempt: Int, file: String) {}
    }

    private func readiness(_ rig: GameRig) -> [String] {
        rig.status["readiness"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    private func warnings(_ rig: GameRig) -> [String] {
        rig.status["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// A spoken game without recording, open, a card selected.
    private func spokenGame() throws -> GameRig {
        let rig = try GameRig()
        #expect(rig.ctl("setup", ["players": "Ann,Bo", "response": "2", "recording": "off"]).ok)
        rig.ctl("open")
        rig.run(for: 0.1)
        #expect(rig.ctl("select", ["card": "poses.star", "rule": "simon"]).ok)
        return rig
    }

    @Test func noSoundOutputRefusesSendBeforeAnyAttempt() throws {
        let rig = try spokenGame()
        let speech = rig.game.speech
        rig.game.speech = SilentGameSpeech(reason: "sound is off in this kiosk (headless)")
        #expect(readiness(rig) == ["The instruction cannot be spoken: sound is off in this kiosk (headless)"])
        #expect(rig.status["ready"]?.boolValue == false)
        let refused = rig.ctl("send")
        #expect(!refused.ok)
        #expect(refused.error?.contains("The instruction cannot be spoken") == true)
        #expect(rig.game.session?.attempts.isEmpty == true, "no attempt is made, so none is void")
        // Sound back (the card plugged in again): Send goes.
        rig.game.speech = speech
        #expect(readiness(rig).isEmpty)
        #expect(rig.ctl("send").ok)
        #expect(rig.game.session?.attempts.count == 1)
    }

    /// A recorded game on a camera that streams, Ann agreed, a card selected.
    private func recordedGame(_ recording: MicrophoneRecording) throws -> GameRig {
        try GameRig.recordedGame(recording: recording, camera: "cam")
    }

    @Test func recordingWithoutAMicrophoneIsNotReadyUntilTheHostChoosesPictureOnly() throws {
        let recording = MicrophoneRecording(soundProblem: "no microphone is configured ([audio] input is empty)")
        let rig = try recordedGame(recording)
        #expect(readiness(rig) == ["Recording is on, but no microphone is configured ([audio] input is empty); "
                                   + "choose “Picture only” for Recording, or turn it off"])
        #expect(!rig.ctl("send").ok)
        #expect(recording.started.isEmpty)
        // The host's explicit choice: picture only. The status and the snapshot say so.
        #expect(rig.ctl("setup", ["recording": "picture"]).ok)
        #expect(rig.status["picture_only"]?.boolValue == true)
        #expect(readiness(rig).isEmpty)
        #expect(rig.ctl("send").ok)
        #expect(rig.game.session?.attempts.last?.snapshot.pictureOnly == true)
        // Its timeline is the picture's alone: the lead-in completes with no sound at all.
        rig.run(for: 0.05)
        #expect(rig.phase == "leadIn")
        let generation = try #require(rig.game.session?.activeGeneration)
        let origin = try #require(rig.game.session?.attempts.last?.timing.recordingOrigin)
        rig.game.receive(.mediaAccepted(generation: generation, stream: .video, upTo: origin + 0.8))
        #expect(rig.phase == "speech")
    }

    @Test func withSoundTheLeadInWaitsForTheMicrophoneNotThePictureAlone() throws {
        let recording = MicrophoneRecording(soundProblem: nil)
        let rig = try recordedGame(recording)
        #expect(readiness(rig).isEmpty)
        #expect(rig.ctl("send").ok)
        #expect(rig.game.session?.attempts.last?.snapshot.pictureOnly == false)
        rig.run(for: 0.05)
        let generation = try #require(rig.game.session?.activeGeneration)
        let origin = try #require(rig.game.session?.attempts.last?.timing.recordingOrigin)
        rig.game.receive(.mediaAccepted(generation: generation, stream: .video, upTo: origin + 0.8))
        #expect(rig.phase == "leadIn", "picture alone is not 0.75 s of sound and picture")
        rig.game.receive(.mediaAccepted(generation: generation, stream: .audio, upTo: origin + 0.8))
        #expect(rig.phase == "speech")
    }

    @Test func aPlayerWhoPlaysWithoutRecordingNeedsNoMicrophone() throws {
        let rig = try recordedGame(MicrophoneRecording(soundProblem: "the microphone is delivering no sound"))
        #expect(rig.ctl("consent", ["player": "Ann", "agreed": "norecord"]).ok)
        #expect(readiness(rig).isEmpty)
    }

    @Test func noParticipantTouchscreenIsAWarningAndSendStillWorks() throws {
        let rig = try spokenGame()
        #expect(warnings(rig) == ["The participant cannot stop an attempt: their display has no touchscreen ([touch] device)"])
        #expect(readiness(rig).isEmpty)
        rig.stage.handle(.participantTouch(true))
        #expect(warnings(rig).isEmpty)
        rig.stage.handle(.participantTouch(false))
        #expect(warnings(rig).count == 1)
        #expect(rig.ctl("send").ok)
    }
}
