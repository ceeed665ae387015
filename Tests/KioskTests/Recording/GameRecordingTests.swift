import Foundation
import Game
import Media
import Testing
@testable import Kiosk
@testable import Stage

/// The game's recording port on a manual clock with a real recorder: the lead-in waits
/// for accepted media, the tail, the bound, voided attempts leave no file, verdicts and
/// corrections reach the clip's JSON, derived exports and their refusals.
@Suite(.serialized) struct GameRecordingTests {
    @Test func theInstructionWaitsForTheLeadInOfAcceptedSoundAndPicture() throws {
        let h = try GameRecordingHarness()
        try h.send()
        #expect(h.phase == .leadIn)
        let origin = try #require(h.attempt?.timing.recordingOrigin)
        // Sound alone is not enough: the timeline is the older of the two streams.
        h.play(upTo: 0.4, frames: false)
        #expect(h.phase == .leadIn && h.speech.playCalls.isEmpty)
        h.play(upTo: 3) { h.phase != .leadIn }
        #expect(h.phase == .speech)
        let asked = try #require(h.speech.playCalls.first)
        // The first frames came 0.4 s late: the lead-in counts from the later stream's
        // first sample, so 0.75 s of both sound and picture precede the instruction
        // (within the first pump that saw both, the next pump, and a frame or two).
        let lateFrames = 0.4
        #expect(asked - origin >= lateFrames + RecordingTimeline.leadIn)
        #expect(asked - origin <= lateFrames + RecordingTimeline.leadIn + 2 * RecordingService.pumpInterval + 2.0 / 30)
        h.play(upTo: 10) { h.phase == .review || h.phase == .interrupted }
        h.settle { h.phase == .review }
        #expect(h.phase == .review)
    }

    /// The microphone delivers nothing: Send is refused with the reason before any
    /// attempt, never a file that claims sound it does not have.
    @Test func aSilentMicrophoneRefusesSendUnlessPictureOnly() throws {
        let h = try GameRecordingHarness()
        #expect(h.game.readinessReasons.contains {
            $0.hasPrefix("Recording is on, but the microphone is delivering no sound")
        })
        #expect(throws: GameControlError.self) { try h.game.perform(.send) }
        #expect(h.game.session?.attempts.isEmpty == true)
    }

    /// Picture only, the host's choice, with a microphone that does deliver: the file
    /// has no sound, its JSON says so, the lead-in is met by the picture, and no narrated
    /// export is offered (it would have no sound to mix into).
    @Test func aPictureOnlyAttemptHasNoSoundAndSaysSo() throws {
        let h = try GameRecordingHarness(pictureOnly: true)
        try h.send()
        h.play(upTo: 12) { h.phase == .review || h.rig.service.phase != .recording && h.phase == .tail }
        h.settle { h.phase == .review }
        let attempt = try #require(h.attempt)
        guard case .saved(let file) = attempt.media else { Issue.record("media \(attempt.media)"); return }
        #expect(try MediaReader(path: file).firstStream(.audio) == nil)
        #expect(try MediaReader(path: file).firstStream(.video) != nil)
        var clip = try h.metadata(file)
        #expect(clip.attempt.timeline.audio == "none")
        #expect(clip.annotations["audio"] == "none: picture only, the host's choice")
        #expect((clip.attempt.timeline.speechStart ?? 0) >= RecordingTimeline.leadIn)
        try h.game.perform(.judge(.pass))
        clip = try h.metadata(file)
        #expect(clip.export == nil)
    }

    @Test func aJudgedSpokenAttemptKeepsItsTimelineVerdictAndNarratedExport() throws {
        let h = try GameRecordingHarness(response: 2)
        try h.send()
        var stoppedAt: Double?
        h.play(upTo: 12) {
            if stoppedAt == nil, h.rig.service.phase == .finishing { stoppedAt = h.rig.clock.now }
            return h.phase == .review || h.rig.service.phase != .recording && h.phase == .tail
        }
        h.settle { h.phase == .review }
        let attempt = try #require(h.attempt)
        guard case .saved(let file) = attempt.media else { Issue.record("media \(attempt.media)"); return }
        let timing = attempt.timing
        let origin = try #require(timing.recordingOrigin)
        let responseEnd = try #require(timing.responseEnd)
        // The tail: the recorder was stopped only after 1.5 s past the window.
        #expect(try #require(stoppedAt) >= responseEnd + RecordingTimeline.tail)
        var clip = try h.metadata(file)
        #expect(clip.annotations["kind"] == "game" && clip.annotations["player"] == "Ann")
        #expect(clip.annotations["card"] == "poses.star" && clip.annotations["rule"] == "simonSays")
        #expect(clip.annotations["mode"] == "spoken" && clip.annotations["verdict"] == "")
        #expect(clip.annotations["game"] == h.game.sessionID && h.game.sessionID.hasPrefix("game-"))
        #expect(clip.attempt.cardTitle == "stretch out like a star")
        let line = clip.attempt.timeline
        #expect(abs((line.speechStart ?? -1) - (try #require(timing.speechStart) - origin)) < 1e-9)
        #expect((line.speechStart ?? 0) >= RecordingTimeline.leadIn)
        #expect(abs((line.responseEnd ?? -1) - (responseEnd - origin)) < 1e-9)
        #expect(line.end - (line.responseEnd ?? .infinity) >= RecordingTimeline.tail)
        #expect(clip.export == nil)
        #expect(clip.attempt.timeline.audio == "microphone")

        try h.game.perform(.judge(.pass))
        clip = try h.metadata(file)
        #expect(clip.annotations["verdict"] == "pass" && clip.attempt.verdicts.count == 1)
        #expect(clip.export?.kind == .narrated && clip.export?.state == .pending)
        h.settle { (try? h.metadata(file))?.export?.state != .pending }
        clip = try h.metadata(file)
        #expect(clip.export?.state == .ready, "\(String(describing: clip.export))")
        let derived = h.rig.folder + "/" + (clip.export?.file ?? "")
        #expect(try MediaReader(path: derived).firstStream(.audio)?.codecName == "aac")

        try h.game.perform(.correct(attempt: attempt.id, .fail))
        clip = try h.metadata(file)
        #expect(clip.annotations["verdict"] == "fail")
        #expect(clip.attempt.verdicts.map(\.verdict) == [.pass, .fail])
        #expect(clip.export?.state == .ready)
        let listed = try #require(ClipFolder.clips(in: h.rig.folder).first)
        #expect(listed.kind == "game" && listed.verdict == "fail" && listed.player == "Ann" && listed.mode == "spoken")
        #expect(listed.derivedPath == derived)
    }

    @Test func aVisualAttemptIsExportedOnlyWithItsCue() throws {
        let h = try GameRecordingHarness(mode: .visual, response: 2)
        try h.send()
        h.play(upTo: 12) { h.phase == .review || h.phase == .interrupted }
        h.settle { h.phase == .review }
        let attempt = try #require(h.attempt)
        guard case .saved(let file) = attempt.media else { Issue.record("media \(attempt.media)"); return }
        let id = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let out = h.rig.folder + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        // Not judged yet: no cue export, so nothing is exported.
        #expect(throws: RecordingError.self) { _ = try h.rig.service.stored.export(id: id, to: out) }
        let clip = try h.metadata(file)
        let onset = try #require(clip.attempt.timeline.cueOnset)
        #expect(abs(onset - (try #require(attempt.timing.cueOnTimeline))) < 1e-9)
        #expect(abs((clip.attempt.timeline.cueEnd ?? 0) - onset - 0.75) < 1e-9)
        try h.game.perform(.judge(.fail))
        #expect(throws: RecordingError.exportNotReady(id, "its cue export is still being made; try again shortly")) {
            _ = try h.rig.service.stored.export(id: id, to: out)
        }
        h.settle { (try? h.metadata(file))?.export?.state != .pending }
        #expect(try h.metadata(file).export?.state == .ready)
        _ = try h.rig.service.stored.export(id: id, to: out)
        h.settle { h.rig.service.stored.exports[id]?.state != .copying }
        let copied = h.rig.service.stored.exports[id]
        #expect(copied?.state == .done && copied?.destination == out + "/" + id + ".cue.mp4")
        #expect(FileManager.default.fileExists(atPath: out + "/" + id + ".cue.mp4"))
        #expect(!FileManager.default.fileExists(atPath: out + "/" + id + ".mp4"))
    }

    @Test func aFailedCueExportIsRefusedThenRetried() throws {
        let h = try GameRecordingHarness(mode: .visual, response: 2)
        try h.send()
        h.play(upTo: 12) { h.phase == .review || h.phase == .interrupted }
        h.settle { h.phase == .review }
        guard case .saved(let file)? = h.attempt?.media else { Issue.record("no media"); return }
        let id = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        // The derived file's place is taken by a folder: the export cannot be renamed into it.
        let derived = String(file.dropLast(4)) + ".cue.mp4"
        try FileManager.default.createDirectory(atPath: derived + "/blocked", withIntermediateDirectories: true)
        try h.game.perform(.judge(.pass))
        h.settle { (try? h.metadata(file))?.export?.state != .pending }
        let failed = try h.metadata(file).export
        #expect(failed?.state == .failed && failed?.reason?.isEmpty == false)
        #expect(ClipFolder.clip(folder: h.rig.folder, id: id)?.export?.state == .failed)
        #expect(throws: RecordingError.self) { _ = try h.rig.service.stored.export(id: id, to: h.rig.folder) }
        try FileManager.default.removeItem(atPath: derived)
        let retried = try h.port.retryExport(id: id)
        #expect(retried.state == .pending)
        h.settle { (try? h.metadata(file))?.export?.state != .pending }
        #expect(try h.metadata(file).export?.state == .ready)
        #expect(throws: RecordingError.self) { _ = try h.port.retryExport(id: id) }
    }

    @Test func aVoidedAttemptLeavesNoFile() throws {
        let h = try GameRecordingHarness(response: 3)
        try h.send()
        h.play(upTo: 10) { h.phase == .response }
        #expect(h.phase == .response && h.rig.service.phase == .recording)
        h.game.participantTapped()
        #expect(h.phase == .interrupted && h.attempt?.media == .discarded)
        h.settle { h.rig.service.phase == .idle }
        MetadataWriter.shared.flush()
        #expect(h.files().isEmpty, "\(h.files())")
    }

    @Test func aStalledCameraInterruptsTheAttemptAndRemovesItsFile() throws {
        let h = try GameRecordingHarness(response: 3)
        try h.send()
        h.play(upTo: 10) { h.phase == .response }
        // The camera stops delivering; the microphone goes on.
        h.play(upTo: 2, frames: false) { h.phase == .interrupted }
        h.settle { h.phase == .interrupted && h.rig.service.phase == .idle }
        #expect(h.attempt?.interruption == .recordingStalled(.video))
        #expect(h.attempt?.verdict == .void)
        MetadataWriter.shared.flush()
        #expect(h.files().isEmpty, "\(h.files())")
        try h.game.perform(.retry)
        #expect(h.phase == .ready)
    }

    @Test func aRecordingPastTheBoundIsStoppedAndTheAttemptVoid() throws {
        let h = try GameRecordingHarness(response: 2)
        h.speech.stuck = true
        try h.send()
        let origin = try #require(h.attempt?.timing.recordingOrigin)
        h.play(upTo: RecordingTimeline.bound + RecordingTimeline.stallGrace + 1) { h.phase == .interrupted }
        h.settle { h.phase == .interrupted && h.rig.service.phase == .idle }
        #expect(h.rig.clock.now - origin >= RecordingTimeline.bound)
        #expect(h.attempt?.interruption == .recordingFailed("the recording ran past its 20 s bound"))
        MetadataWriter.shared.flush()
        #expect(h.files().isEmpty, "\(h.files())")
    }

    @Test func aStopOfTheKioskMidAttemptLeavesNoFile() throws {
        let h = try GameRecordingHarness(response: 3)
        try h.send()
        h.play(upTo: 10) { h.phase == .response }
        #expect(h.rig.service.phase == .recording)
        h.rig.service.finishForShutdown()
        #expect(h.rig.service.phase == .idle)
        #expect(h.files().isEmpty, "\(h.files())")
        // The game's own save voids the attempt for the restart.
        #expect(h.game.session?.saved.attempts.last?.media == .discarded)
    }

    @Test func deletingAnAttemptsMediaKeepsItsResult() throws {
        let h = try GameRecordingHarness(response: 2)
        try h.send()
        h.play(upTo: 12) { h.phase == .review || h.phase == .interrupted }
        h.settle { h.phase == .review }
        guard case .saved(let file)? = h.attempt?.media, let id = h.attempt?.id else { Issue.record("no media"); return }
        try h.game.perform(.judge(.pass))
        h.settle { (try? h.metadata(file))?.export?.state != .pending }
        try h.game.perform(.deleteMedia(attempt: id))
        let clip = try h.metadata(file)
        #expect(clip.annotations["media"] == "deleted" && clip.annotations["verdict"] == "pass" && clip.export == nil)
        #expect(h.files().filter { $0.hasSuffix(".mp4") }.isEmpty, "\(h.files())")
    }
}
