import Foundation
import Media
import Prompter
import Render
import Testing
@testable import Stage

/// The operator's Prompter screen shows voice follow's line (what was heard, the
/// confidence) while follow is on, from what its listening port heard.
@Suite struct FollowConsoleLineTests {
    private static let shown = FollowShown(mode: "tracking", confidence: 0.82, heard: "the quick brown fox jumps")

    @Test func theLineSaysTheModeTheConfidenceAndTheHeardWords() {
        let line = Self.shown.line
        #expect(line.contains("tracking"))
        #expect(line.hasPrefix("Follow (English): 82 %"))
        #expect(line.contains("heard \u{201C}the quick brown fox jumps\u{201D}"))
        #expect(FollowShown(mode: "waiting", confidence: 0, heard: "").line.contains("nothing heard yet"))
        #expect(FollowShown(mode: "lost", confidence: 1.7, heard: "x").line.hasPrefix("Follow (English): 100 %"))
        // The speed keys' lead shows after the mode; none at 0.
        #expect(!line.contains("lead"))
        #expect(FollowShown(mode: "tracking", confidence: 1, heard: "x", lead: 1).line.contains("tracking · lead +1.0 line ·"))
        #expect(FollowShown(mode: "holding", confidence: 1, heard: "x", lead: -1.5).line.contains("lead -1.5 lines"))
    }

    @Test func theLineAppearsInTheSidePanelWhileFollowIsOnAndGoesWhenItIsOff() throws {
        var settings = SceneFixtures.settings()
        settings.countdown = 0
        // Wide enough for the whole line in the side column.
        let replay = try SceneFixtures.playing(SceneFixtures.english, settings: settings,
                                               display: PixelSize(width: 1280, height: 540), fonts: SceneFixtures.fonts)
        replay.stage.wallClock = { Date(timeIntervalSince1970: 1_790_000_000) }
        replay.controller.pause(at: 1)
        let off = try SceneFixtures.inner(replay, at: 2)

        // Follow on, its recogniser ready, and the talent heard reading the first words.
        let listening = FakeListening()
        replay.stage.follow.listening = listening
        #expect(replay.stage.handle(.follow(true)).body["ok"] == true)
        let words = try #require(listening.started)
        replay.stage.handle(.followListening(words))
        Self.hear(replay, "good evening and thank you for joining us", at: 2)
        let shown = try #require(replay.stage.follow.shown)
        #expect(shown.heard == "evening and thank you for joining us" || shown.heard.hasSuffix("joining us"),
                "\(shown.heard)")
        let on = try SceneFixtures.inner(replay, at: 2)
        let changed = Self.changedRows(off, on)
        // The line goes into the right-hand column (what is under it moves down); the
        // script preview and the timers are untouched.
        #expect(!changed.rows.isEmpty)
        #expect(changed.minX > off.width * 58 / 100, "changes start at x \(changed.minX)")
        try SceneReferenceImage.expectMatch(on, named: "console-follow-line")

        // Other heard words draw a different line.
        Self.hear(replay, "good evening and thank you for joining us tonight we look at how", at: 2)
        let other = try SceneFixtures.inner(replay, at: 2)
        #expect(!Self.changedRows(on, other).rows.isEmpty)

        #expect(replay.stage.handle(.follow(false)).body["ok"] == true)
        #expect(replay.stage.follow.shown == nil)
        let offAgain = try SceneFixtures.inner(replay, at: 2)
        #expect(Self.changedRows(off, offAgain).rows.isEmpty)
    }

    /// The recogniser's one utterance so far, heard by `time` (its words 0.3 s apart).
    private static func hear(_ replay: ManualClockStage, _ text: String, at time: Double) {
        // A tick first: it makes the follow driver for the laid-out script.
        replay.advance(to: replay.clock.now + VoiceFollowController.tickInterval)
        let words = text.split(separator: " ").enumerated().map { index, word in
            HeardWord(word: String(word), start: Double(index) * 0.3, end: Double(index) * 0.3 + 0.25)
        }
        let hearing = Hearing(utterance: 0, words: words, final: false, audioTime: Double(words.count) * 0.3)
        replay.stage.handle(.followHeard(.success(FollowHearing(hearing, origin: time - hearing.audioTime))))
        replay.advance(to: replay.clock.now + VoiceFollowController.tickInterval)
    }

    private static func changedRows(_ a: Canvas, _ b: Canvas) -> (rows: [Int], minX: Int) {
        var rows: [Int] = []
        var minX = a.width
        for y in 0..<a.height {
            var any = false
            for x in 0..<a.width where a.pixels[y * a.width + x] & 0xff_ffff != b.pixels[y * b.width + x] & 0xff_ffff {
                any = true
                minX = min(minX, x)
            }
            if any { rows.append(y) }
        }
        return (rows, minX)
    }
}

/// A listening port whose hearings the test hands to the stage itself.
final class FakeListening: ListeningPort {
    private(set) var started: ScriptWords?
    func refusal(language: String) -> String? { nil }
    func start(words: ScriptWords, language: String) { started = words }
    func stop() { started = nil }
    func listen(path: String) -> Result<(seconds: Double, started: Double), ListeningRefusal> {
        .failure(ListeningRefusal("no files here"))
    }
    var fileStatus: JSONValue { .null }
    var heardUpTo: Double? { nil }
}
