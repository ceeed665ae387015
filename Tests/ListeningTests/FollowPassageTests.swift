import Foundation
import Glibc
import Testing
@testable import Stage

/// Voice follow end to end without devices (`FollowPassage`, shared with `rig bench`):
/// espeak-ng reads two paragraphs of the GPL at 165 words a minute, pauses 3 s, then
/// reads on at 230; the audio goes through the recogniser in 100 ms chunks, the aligner
/// and the follow driver steer a real engine, and espeak-ng's word events are the truth.
@Suite struct FollowPassageTests {
    @Test func followsSpeechThatChangesSpeedAndPauses() throws {
        let passage = try FollowPassage.gpl()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-follow-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tracing = ProcessInfo.processInfo.environment["RIG_FOLLOW_TRACE"] != nil
        let run = try passage.follow(folder: folder, trace: tracing ? { print($0) } : nil)

        for miss in run.misses {
            print("follow miss at \(miss.t) s: reading line \(miss.line), spoken line \(miss.spokenLine)")
        }
        print(String(format: "follow figures: %d words, %.1f s audio, accuracy %.0f%% of %d seconds within 2 lines, "
                     + "latency median %.2f s, recognition RTF %.3f", passage.script.words.count, passage.duration,
                     run.accuracy * 100, run.seconds.count, run.latencyMedian, run.realTimeFactor))

        // Every second within 2 lines of the spoken word (the pause and the catch-up included).
        #expect(run.misses.isEmpty, "seconds off by more than 2 lines")
        // Holds during the pause: from 1.5 s into it to its end, the reading line stands still.
        #expect(abs(run.offset(at: passage.pauseStart + 1.5) - run.offset(at: passage.secondStart)) <= 1,
                "the reading line moved during the pause")
        // Catches up within 1 s after the pause: the reading line is within 2 lines of the talent.
        let after = passage.secondStart + 1
        let lineAfter = Int(run.offset(at: after) / FollowPassage.lineHeight)
        #expect(abs(lineAfter - passage.spokenWord(at: after) / FollowPassage.wordsPerLine) <= 2,
                "not caught up 1 s after the pause")
        #expect(run.latencyMedian <= 0.7, "follow latency median")
        // The direction between the paragraphs is on the script but never listened for.
        #expect(passage.markup.directions.count == 1)
        #expect(passage.text.contains(FollowPassage.direction))
        #expect(!passage.script.tokens.contains("breath"), "a direction is not a word to hear")
        #expect(passage.script.words.count == passage.truth.count, "every script word is a spoken word")
        #expect(run.realTimeFactor <= 0.25, "recognition real-time factor")
    }
}
