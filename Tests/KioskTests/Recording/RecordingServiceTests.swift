import Foundation
import Media
import Testing
@testable import Kiosk
@testable import Stage

/// RecordingService with a fake frame source on a manual clock and a real recorder.
@Suite(.serialized) struct RecordingServiceTests {
    @Test func aStoppedTakeWritesTheFileAndItsMetadata() throws {
        let rig = try RecordingHarness()
        rig.sound()
        let id = try rig.service.start(RecordingTake(kind: .prompter, annotations: ["script": "talk.txt"]), video: rig.video)
        #expect(rig.service.phase == .recording)
        rig.record(seconds: 1.0)
        try rig.service.finish(generation: id, annotations: ["position_end": "420.0"])
        #expect(rig.service.phase == .finishing)
        rig.runUntil { !rig.outcomes.isEmpty }
        let outcome = try #require(rig.outcomes.first)
        #expect(outcome.generation == id && outcome.message == nil && !outcome.retry)
        let result = try #require(outcome.result)
        #expect(result.videoFrames == 30)
        #expect(result.audioSamples > 40000)
        #expect(FileManager.default.fileExists(atPath: result.path))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath:
            result.path.replacingOccurrences(of: ".mp4", with: ".json")))) as? [String: Any]
        let annotations = try #require(json?["annotations"] as? [String: String])
        #expect(annotations == ["script": "talk.txt", "position_end": "420.0", "kind": "prompter"])
        #expect(rig.service.phase == .idle)
        #expect(rig.service.statusJSON["last"]?["file"] == .string(result.path))
    }

    @Test func aCameraThatStopsEndsTheTakeWithARetryAndNoFile() throws {
        let rig = try RecordingHarness()
        rig.sound()
        let id = try rig.service.start(RecordingTake(kind: .prompter), video: rig.video)
        rig.record(seconds: 0.5)
        rig.record(seconds: 1.0, frames: false)
        rig.runUntil { !rig.outcomes.isEmpty }
        let outcome = try #require(rig.outcomes.first)
        #expect(outcome.generation == id && outcome.result == nil && outcome.retry)
        #expect(outcome.message?.contains("the camera delivered no picture") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: rig.folder).isEmpty)
    }

    @Test func theDiskFillingUpStopsTheTakeAndKeepsAPlayableFile() throws {
        let rig = try RecordingHarness()
        rig.sound()
        _ = try rig.service.start(RecordingTake(kind: .prompter), video: rig.video)
        rig.record(seconds: 0.5)
        rig.free.bytes.withLock { $0 = 1000 }
        rig.record(seconds: 0.2)
        rig.runUntil { !rig.outcomes.isEmpty }
        let outcome = try #require(rig.outcomes.first)
        #expect(outcome.message?.hasPrefix("Recording stopped: only") == true)
        #expect(!outcome.retry)
        let result = try #require(outcome.result)
        let reader = try MediaReader(path: result.path)
        #expect(reader.firstStream(.video)?.codecName == "h264")
        #expect(reader.firstStream(.audio)?.codecName == "aac")
    }

    @Test func tooLittleFreeSpaceRefusesToStart() throws {
        let rig = try RecordingHarness()
        rig.free.bytes.withLock { $0 = 1000 }
        #expect(throws: RecordingError.self) { try rig.service.start(RecordingTake(kind: .prompter), video: rig.video) }
        #expect(rig.service.phase == .idle)
    }

    @Test func generationsKeepTakesApart() throws {
        let rig = try RecordingHarness()
        #expect(throws: RecordingError.noCamera("no picture")) {
            try rig.service.start(RecordingTake(kind: .game), video: nil)
        }
        let id = try rig.service.start(RecordingTake(kind: .game), video: rig.video)
        #expect(throws: RecordingError.busy(generation: id)) {
            try rig.service.start(RecordingTake(kind: .prompter), video: rig.video)
        }
        #expect(throws: RecordingError.notCurrent(generation: id + 1)) { try rig.service.finish(generation: id + 1) }
        rig.record(seconds: 0.3)
        try rig.service.cancel(generation: id)
        rig.runUntil { !rig.outcomes.isEmpty }
        #expect(rig.outcomes.first?.result == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: rig.folder).isEmpty)
        let next = try rig.service.start(RecordingTake(kind: .game), video: rig.video)
        #expect(next == id + 1)
    }

    @Test func halfWrittenFilesAreRemovedAtStart() throws {
        let rig = try RecordingHarness()
        let partial = rig.folder + "/.prompter-1.mp4.partial"
        let attempt = rig.folder + "/.game-2.mp4.partial"
        let kept = rig.folder + "/prompter-0.mp4"
        // A metadata write cut before its rename, by a process long gone (no such pid).
        let metadataTemp = rig.folder + "/.prompter-0.json.2147483646.12345.tmp"
        for path in [partial, attempt, kept, metadataTemp] {
            #expect(FileManager.default.createFile(atPath: path, contents: Data([1])))
        }
        // Nothing in them plays: nothing to recover.
        let settled = RecordingsAtStart.settleIncompleteFiles(in: rig.folder)
        #expect(settled.recovered.isEmpty)
        #expect(settled.removed == [metadataTemp, attempt, partial])
        #expect(!FileManager.default.fileExists(atPath: metadataTemp))
        #expect(!FileManager.default.fileExists(atPath: partial))
        #expect(FileManager.default.fileExists(atPath: kept))
    }

    @Test func aPrompterTakeCutShortIsRecoveredAndAGameAttemptsIsRemoved() throws {
        // What a power cut leaves: fragments under the temporary name and no JSON. A
        // finished take moved back under that name is such a file (fragmented MP4).
        let rig = try RecordingHarness()
        var files: [String: String] = [:]
        for kind in [RecordingTake.Kind.prompter, .game] {
            rig.sound()
            let id = try rig.service.start(RecordingTake(kind: kind), video: rig.video)
            rig.record(seconds: 1.5)
            try rig.service.finish(generation: id)
            rig.runUntil { rig.outcomes.count == (kind == .prompter ? 1 : 2) }
            let media = try #require(rig.outcomes.last?.result?.path)
            let name = ((media as NSString).lastPathComponent as NSString).deletingPathExtension
            let partial = rig.folder + "/." + name + ".mp4.partial"
            #expect(rename(media, partial) == 0)
            unlink(rig.folder + "/" + name + ".json")
            files[kind.rawValue] = name
        }
        let settled = RecordingsAtStart.settleIncompleteFiles(in: rig.folder)
        let take = try #require(files["prompter"]), attempt = try #require(files["game"])
        #expect(settled.recovered == [rig.folder + "/" + take + ".mp4"])
        #expect(settled.removed == [rig.folder + "/." + attempt + ".mp4.partial"])
        let clip = try #require(rig.service.stored.clips().first { $0.id == take })
        #expect(clip.kind == "prompter")
        #expect(clip.hasMedia)
        #expect((clip.duration ?? 0) > 1.0)
        let json = try String(contentsOfFile: rig.folder + "/" + take + ".json", encoding: .utf8)
        #expect(json.contains("recovered"))
        #expect(try MediaReader(path: rig.folder + "/" + take + ".mp4").firstStream(.video) != nil)
    }

    @Test func capturePeriodsReachTheRecorderAsTenthSecondChunksSplitAtGaps() {
        func period(_ first: Int64, _ time: Double) -> CapturedPeriod {
            CapturedPeriod(firstFrame: first, time: time, sampleRate: 48000, samples: [Int16](repeating: 1, count: 480))
        }
        // 25 contiguous 10 ms periods, then a gap of 480 frames, then 2 more.
        var periods = (0..<25).map { period(Int64($0) * 480, 10 + Double($0) * 0.01) }
        periods += [period(26 * 480, 10.26), period(27 * 480, 10.27)]
        let chunks = RecordingService.chunks(periods)
        #expect(chunks.map(\.samples.count) == [4800, 4800, 2400, 960])
        #expect(chunks.map(\.timestamp) == [periods[0].time, periods[10].time, periods[20].time, periods[25].time])
    }
}
