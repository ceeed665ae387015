import Foundation
import Game
import Render
import Testing
@testable import Stage

/// The game on the stage, headless on the manual clock: driven by control requests,
/// speech from a fake port, the outer display flipping at 60 Hz.
@Suite struct GameStageTests {
    private func spokenGame() throws -> GameRig {
        let rig = try GameRig()
        #expect(rig.ctl("setup", ["players": "Ann,Bo", "per_turn": "2", "response": "2", "recording": "off"]).ok)
        return rig
    }

    private func visualGame(fonts: FontLibrary? = nil) throws -> GameRig {
        let rig = try GameRig(fonts: fonts)
        #expect(rig.ctl("setup", ["players": "Ann,Bo", "per_turn": "2", "response": "2", "mode": "visual",
                                  "cue": "0.5", "recording": "off"]).ok)
        rig.run(for: 0.1)
        return rig
    }

    @Test func aWholeSpokenGameOfTwoPlayersAndTwoChallengesEachEndsOnTheScoreboard() throws {
        let rig = try spokenGame()
        rig.run(for: 0.1)
        let verdicts = ["pass", "fail", "pass", "pass"]
        for (index, verdict) in verdicts.enumerated() {
            #expect(rig.ctl("select", ["card": "poses.star", "rule": index % 2 == 0 ? "simon" : "not"]).ok)
            let sent = rig.ctl("send")
            #expect(sent.ok, "\(sent.error ?? "")")
            rig.run(for: 0.05)
            #expect(rig.phase == "speech")
            rig.run(for: 1.6)
            #expect(rig.phase == "response")
            rig.run(for: 2.1)
            #expect(rig.phase == "review")
            #expect(rig.ctl("verdict", ["verdict": verdict]).ok)
            #expect(rig.ctl("next").ok)
        }
        let scores = try #require(rig.status["scores"]?.arrayValue)
        #expect(scores.map { $0["points"]?.numberValue } == [1, 2])
        #expect(rig.speech.prepared.first == "Simon says, make a star with your arms and legs"
            || rig.speech.prepared.first?.hasPrefix("Simon says, ") == true)
        #expect(rig.speech.prepared[1].hasPrefix("Simon says") == false)
        // The timing record of an attempt: speech from the port, the window from its end.
        let first = try #require(rig.status["attempts"]?.arrayValue?.first)
        let end = try #require(first["speech_end"]?.numberValue)
        #expect(first["response_start"]?.numberValue == end)
        #expect(first["response_end"]?.numberValue == end + 2)
    }

    @Test func theCueIsAcknowledgedByTheOuterFlipAtTheNextVblankAfterItsRequest() throws {
        let rig = try visualGame()
        #expect(rig.ctl("select", ["card": "poses.star", "rule": "simon"]).ok)
        let sent = rig.ctl("send")
        #expect(sent.ok, "\(sent.error ?? "")")
        rig.run(for: 2)
        #expect(rig.phase == "response")
        let attempt = try #require(rig.status["attempts"]?.arrayValue?.last)
        let request = try #require(attempt["cue_requested"]?.numberValue)
        let onset = try #require(attempt["cue_onset"]?.numberValue)
        let nextVblank = (request * GameRig.refresh).rounded(.up) / GameRig.refresh
        #expect(abs(onset - nextVblank) < 1e-9)
        #expect(attempt["cue_frames_after_request"]?.numberValue == 1)
        #expect(attempt["response_start"]?.numberValue == onset)
        let sequence = try #require(attempt["cue_flip_sequence"]?.numberValue)
        #expect(rig.outerFlips.contains { $0.time == onset && Double($0.sequence) == sequence })
        // The letter goes after its duration; the window closes 2 s after the onset.
        #expect(rig.game.shownCue != nil)
        rig.run(to: onset + 0.51)
        #expect(rig.game.shownCue == nil)
        rig.run(to: onset + 2.01)
        #expect(rig.phase == "review")
    }

    @Test func theCueIsRequestedAtTheSpeechesDACEndNotWhenALSAReportsIt() throws {
        let rig = try visualGame()
        rig.speech.endReportedEarly = 0.15
        #expect(rig.ctl("select", ["card": "poses.star", "rule": "simon"]).ok)
        #expect(rig.ctl("send").ok)
        rig.run(for: 1.45)
        #expect(rig.phase == "speech")
        rig.run(for: 0.2)
        let attempt = try #require(rig.status["attempts"]?.arrayValue?.last)
        let end = try #require(attempt["speech_end"]?.numberValue)
        #expect(attempt["cue_requested"]?.numberValue == end)
        #expect(attempt["cue_frames_after_request"]?.numberValue == 1)
    }

    @Test func aCueNoOuterFlipShowsIsVoidAfterHalfASecond() throws {
        let rig = try visualGame()
        #expect(rig.ctl("select", ["card": "poses.star", "rule": "not"]).ok)
        #expect(rig.ctl("send").ok)
        // The outer display stops flipping (no vblanks run): only timers.
        rig.replay.advance(to: rig.now + 1.52 + 0.6)
        #expect(rig.phase == "interrupted")
        let attempt = try #require(rig.status["attempts"]?.arrayValue?.last)
        #expect(attempt["interruption"]?.stringValue == InterruptionReason.cueNotShown.description)
        #expect(rig.ctl("retry").ok)
        #expect(rig.phase == "ready")
    }

    @Test func aTapDuringAnAttemptIsStopAndOutsideOneNothing() throws {
        let rig = try spokenGame()
        rig.stage.handle(.outerTap(time: rig.now))
        #expect(rig.phase == "ready")
        #expect(rig.ctl("select", ["card": "poses.star", "rule": "simon"]).ok)
        #expect(rig.ctl("send").ok)
        rig.run(for: 1.8)
        #expect(rig.phase == "response")
        rig.stage.handle(.outerTap(time: rig.now))
        #expect(rig.phase == "interrupted")
        let attempt = try #require(rig.status["attempts"]?.arrayValue?.last)
        #expect(attempt["interruption"]?.stringValue == InterruptionReason.participantStop.description)
        #expect(rig.status["scores"]?.arrayValue?.first?["voided"]?.numberValue == 1)
        #expect(rig.stage.controller.taps == 0)
    }

    @Test func refusedRequestsSayWhyAndChangeNothing() throws {
        let rig = try spokenGame()
        let before = rig.status
        let send = rig.ctl("send")
        #expect(!send.ok && send.error?.contains("Select an action") == true)
        #expect(rig.ctl("verdict", ["verdict": "pass"]).error?.contains("not possible in ready") == true)
        #expect(rig.ctl("setup", ["response": "30"]).error?.contains("response window: must be 2 to 10 seconds") == true)
        #expect(rig.ctl("select", ["card": "poses.nope"]).error?.contains("poses.nope") == true)
        #expect(rig.ctl("setup", ["colour": "red"]).error?.contains("unknown key colour") == true)
        #expect(rig.ctl("sen").error?.contains("unknown game action \"sen\"") == true)
        #expect(rig.status == before)
    }

    @Test func recordingOnIsAReadinessReasonInThisBuild() throws {
        let rig = try GameRig(camera: true)
        #expect(rig.ctl("setup", ["players": "Ann,Bo"]).ok)
        #expect(rig.status["recording"]?.boolValue == true)
        #expect(rig.ctl("consent", ["player": "Ann"]).ok)
        #expect(rig.ctl("select", ["card": "poses.star"]).ok)
        let reasons = rig.status["readiness"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(reasons.contains { $0.contains(UnavailableGameRecording.reason) })
        #expect(rig.ctl("send").error?.contains(UnavailableGameRecording.reason) == true)
        // A game without recording is always possible.
        #expect(rig.ctl("setup", ["recording": "off"]).ok)
        #expect(rig.ctl("send").ok)
    }

    @Test func visualSZWithoutTheOuterDisplaySaysWhyAndSpokenPlayStillRuns() throws {
        let rig = try visualGame()
        rig.stage.handle(.display(.outer, DisplayStatus(connector: "outer", connected: false)))
        #expect(rig.ctl("select", ["card": "poses.star"]).ok)
        #expect(rig.ctl("send").error?.contains("not connected") == true)
        #expect(rig.ctl("setup", ["mode": "spoken"]).ok)
        #expect(rig.ctl("send").ok)
    }

    @Test func leavingTheGameMidAttemptVoidsItAndThePrompterIsHeldMeanwhile() throws {
        let rig = try spokenGame()
        #expect(rig.stage.handle(.play).error?.contains("game is open") == true)
        #expect(rig.ctl("select", ["card": "poses.star"]).ok)
        #expect(rig.ctl("send").ok)
        rig.run(for: 0.5)
        #expect(rig.ctl("leave").ok)
        #expect(rig.phase == "interrupted")
        #expect(rig.speech.cancelled == [1])
        #expect(rig.stage.handle(.play).ok)
    }

    @Test func aPendingReviewSurvivesARestartAndConsentIsAskedAgain() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("game-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let rig = try GameRig(stateDirectory: directory)
            #expect(rig.ctl("setup", ["players": "Ann,Bo", "response": "2", "recording": "off"]).ok)
            #expect(rig.ctl("consent", ["player": "Ann"]).ok)
            #expect(rig.ctl("select", ["card": "poses.star"]).ok)
            #expect(rig.ctl("send").ok)
            rig.run(for: 4)
            #expect(rig.phase == "review")
        }
        // A new kiosk on the same state directory (the old one killed without a word).
        let restarted = try GameRig(stateDirectory: directory)
        #expect(restarted.phase == "review")
        #expect(restarted.game.session?.pendingReview?.snapshot.player == "Ann")
        #expect(restarted.game.session?.consent.hasAgreed("Ann") == false)
        #expect(restarted.ctl("verdict", ["verdict": "pass"]).ok)
    }
}

/// Faults mid-attempt: each voids the attempt without penalty and the retry works.
@Suite struct GameFaultTests {
    private func running(mode: String) throws -> GameRig {
        let rig = try GameRig()
        #expect(rig.ctl("setup", ["players": "Ann,Bo", "mode": mode, "response": "2", "recording": "off"]).ok)
        rig.run(for: 0.1)
        #expect(rig.ctl("select", ["card": "poses.star", "rule": "simon"]).ok)
        #expect(rig.ctl("send").ok)
        rig.run(for: 0.5)
        #expect(rig.phase == "speech")
        return rig
    }

    @Test func theOuterDisplayUnpluggedMidAttemptVoidsItAndTheRetryWorksWhenItIsBack() throws {
        let rig = try running(mode: "visual")
        let outer = ManualClockStage.connectedDisplay("outer", rig.replay.outerSize)
        var gone = outer
        gone.connected = false
        gone.available = false
        rig.stage.handle(.display(.outer, gone))
        #expect(rig.phase == "interrupted")
        #expect(rig.status["attempts"]?.arrayValue?.last?["interruption"]?.stringValue
            == InterruptionReason.outerDisplayLost.description)
        #expect(rig.speech.cancelled == [1])
        #expect(rig.ctl("retry").ok)
        #expect(rig.ctl("send").error?.contains("not connected") == true)
        rig.stage.handle(.display(.outer, outer))
        rig.run(for: 0.1)
        #expect(rig.ctl("send").ok)
        rig.run(for: 4)
        #expect(rig.phase == "review")
        #expect(rig.status["scores"]?.arrayValue?.first?["voided"]?.numberValue == 1)
    }

    @Test func shutdownMidAttemptSavesItAsInterruptedAndARestartOffersTheRetry() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("game-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let rig = try GameRig(stateDirectory: directory)
            #expect(rig.ctl("setup", ["players": "Ann,Bo", "response": "2", "recording": "off"]).ok)
            #expect(rig.ctl("select", ["card": "poses.star"]).ok)
            #expect(rig.ctl("send").ok)
            rig.run(for: 0.5)
            rig.stage.stop()
            #expect(rig.speech.cancelled == [1])
        }
        let restarted = try GameRig(stateDirectory: directory)
        #expect(restarted.phase == "interrupted")
        #expect(restarted.game.session?.attempts.last?.interruption == .shutdown)
        #expect(restarted.ctl("retry").ok)
        #expect(restarted.ctl("send").error?.contains("not open") == true)
        #expect(restarted.ctl("open").ok)
        #expect(restarted.ctl("send").ok)
    }
}
