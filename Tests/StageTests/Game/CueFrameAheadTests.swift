import Foundation
import Game
import Render
import Testing
@testable import Stage

/// The cue's frame drawn ahead: 0.4 s before the speech's DAC end (its first sample's
/// time plus its length, known long before ALSA reports the end) the outer display
/// draws the participant view as it will be from the cue's request and holds it; at
/// the request that frame is flipped without drawing, and its flip, the first showing
/// the cue's id, is the onset.
@Suite struct CueFrameAheadTests {
    private func visualGame() throws -> GameRig {
        let rig = try GameRig(camera: true, fonts: try FontLibrary())
        rig.stage.handle(.camera(CameraInput(frame: nil, message: nil, state: "streaming", live: true)))
        rig.stage.handle(.cameraFrame(ParticipantViewTests.splitFrame(sequence: 1)))
        // ALSA reports the end 150 ms before its DAC time, as in the virtual rig.
        rig.speech.endReportedEarly = 0.15
        try rig.prepareAhead()
        #expect(rig.ctl("setup", ["players": "Ann,Bo", "mode": "visual", "cue": "1.5", "response": "3",
                                  "recording": "off"]).ok)
        rig.run(for: 0.1)
        #expect(rig.ctl("select", ["card": "poses.star", "rule": "not"]).ok)
        #expect(rig.ctl("send").ok)
        return rig
    }

    /// Runs the rig until the cue's frame is drawn ahead, feeding camera frames meanwhile
    /// (each asks for an outer frame, as the kiosk's camera does).
    private func runToEndReport(_ rig: GameRig) {
        var sequence: UInt32 = 2
        while rig.preparedFor.isEmpty && rig.now < 110 {
            rig.stage.handle(.cameraFrame(ParticipantViewTests.splitFrame(sequence: sequence)))
            sequence += 1
            rig.run(for: 1.0 / 30)
        }
    }

    @Test func theCueFrameDrawnAheadIsFlippedAtTheRequestAndIsTheOnset() throws {
        let rig = try visualGame()
        runToEndReport(rig)
        let due = try #require(rig.preparedFor.first)
        #expect(rig.phase == "speech")
        // Drawn for the DAC end, 0.4 s ahead of it (before ALSA's end report, 0.15 s ahead).
        let attempt = try #require(rig.status["attempts"]?.arrayValue?.last)
        #expect(attempt["speech_end"] == .null)
        #expect(abs(due - rig.now - GameController.cueFrameLead) < 1.0 / 30 + 1e-9)
        // Camera frames keep coming until the request: none flips the held cue frame.
        let flipsBefore = rig.outerFlips.count
        var sequence: UInt32 = 100
        while rig.now < due - 0.01 {
            rig.stage.handle(.cameraFrame(ParticipantViewTests.splitFrame(sequence: sequence)))
            sequence += 1
            rig.run(for: 1.0 / 30)
        }
        #expect(rig.outerFlips.count == flipsBefore)
        #expect(rig.aheadHolds)
        rig.run(to: due + 0.1)
        #expect(rig.phase == "response")
        let done = try #require(rig.status["attempts"]?.arrayValue?.last)
        #expect(done["speech_end"]?.numberValue == due)
        let request = try #require(done["cue_requested"]?.numberValue)
        let onset = try #require(done["cue_onset"]?.numberValue)
        #expect(request >= due)
        #expect(done["cue_frames_after_request"]?.numberValue == 1)
        // The onset is the flip of the frame drawn ahead, nothing drawn after the request.
        #expect(rig.flippedAhead == [onset])
        // And that frame is the one the cue phase draws: the same pixels drawn afresh.
        let shown = Array(rig.outer.pixels)
        let fresh = try rig.replay.canvas(.outer, at: onset)
        #expect(withExtendedLifetime(fresh) { Array(fresh.pixels) } == shown)
    }

    @Test func aFrameDrawnAheadThatNoLongerFitsIsDrawnOverNeverShown() throws {
        let rig = try visualGame()
        runToEndReport(rig)
        let due = try #require(rig.preparedFor.first)
        let aheadPixels = Array(try #require(rig.ahead).pixels)
        // The participant taps Stop while the last words play: the attempt is void.
        rig.stage.handle(.outerTap(time: rig.now))
        rig.run(to: due + 0.2)
        #expect(rig.phase == "interrupted")
        #expect(rig.flippedAhead.isEmpty)
        #expect(Array(rig.outer.pixels) != aheadPixels)
        let attempt = try #require(rig.status["attempts"]?.arrayValue?.last)
        #expect(attempt["cue_onset"] == .null)
    }
}
