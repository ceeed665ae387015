import Foundation
import Render
import Stage
import Testing

/// The operator's Prompter screen shows voice follow's line (what was heard, the
/// confidence) while follow is on, handed in as data (`StageEvent.follow`).
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

        replay.stage.handle(.follow(Self.shown))
        #expect(replay.stage.follow == Self.shown)
        let on = try SceneFixtures.inner(replay, at: 2)
        let changed = Self.changedRows(off, on)
        // The line goes into the right-hand column (what is under it moves down); the
        // script preview and the timers are untouched.
        #expect(!changed.rows.isEmpty)
        #expect(changed.minX > off.width * 58 / 100, "changes start at x \(changed.minX)")
        try SceneReferenceImage.expectMatch(on, named: "console-follow-line")

        // Other heard words draw a different line.
        replay.stage.handle(.follow(FollowShown(mode: "holding", confidence: 0.4, heard: "over the lazy dog")))
        let other = try SceneFixtures.inner(replay, at: 2)
        #expect(!Self.changedRows(on, other).rows.isEmpty)

        replay.stage.handle(.follow(nil))
        #expect(replay.stage.follow == nil)
        let offAgain = try SceneFixtures.inner(replay, at: 2)
        #expect(Self.changedRows(off, offAgain).rows.isEmpty)
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
