import Foundation
import Prompter
import Render
import Testing
@testable import Kiosk
@testable import Stage

/// The take's marks (countdown, REC) on both displays: upright under every text
/// transform, where they belong, and only while a take runs.
@Suite struct TakeOverlaySceneTests {
    static func region(_ canvas: Canvas, _ rect: PixelRect) -> [UInt32] {
        (rect.y..<rect.maxY).flatMap { y in (rect.x..<rect.maxX).map { canvas.pixels[y * canvas.width + $0] } }
    }

    /// `countdown`: `[recording] countdown`, 0 for a take that records at once.
    static func replay(_ transform: TextTransform, countdown: Int = 3) throws -> ManualClockStage {
        try SceneFixtures.playing(SceneFixtures.english, settings: SceneFixtures.settings(transform: transform),
                                  fonts: SceneFixtures.fonts, takeCountdown: countdown)
    }

    @Test func theCountdownIsUprightUnderEveryTransformAndCountsDown() throws {
        // The square inside the round badge: nothing under it shows through.
        let outer = TakeOverlay.countdownBox(SceneFixtures.display)
        let inset = outer.width * 3 / 20
        let box = PixelRect(x: outer.x + inset, y: outer.y + inset, width: outer.width - 2 * inset,
                            height: outer.height - 2 * inset)
        var plain: [UInt32]?
        for (transform, name) in OuterPrompterSceneTests.transformNames {
            let replay = try Self.replay(transform)
            replay.advance(to: 1)
            replay.pressRecord()
            #expect(replay.stage.take == .countdown(endsAt: 4))
            let three = try SceneFixtures.outer(replay, at: 1.5)
            let pixels = Self.region(three, box)
            if let plain {
                let same = pixels == plain
                #expect(same, "the countdown differs under \(name)")
            } else {
                plain = pixels
                try SceneReferenceImage.expectMatch(three, named: "take-countdown-3")
            }
            let one = try SceneFixtures.outer(replay, at: 3.2)
            let changed = Self.region(one, box) != pixels
            #expect(changed, "3 and 1 look the same under \(name)")
            #expect(replay.stage.isAnimating(.outer, at: 3.2))
        }
        try SceneReferenceImage.expectMatch(try SceneFixtures.outer(Self.replay(TextTransform(mirror: true, rotation: .quarter)).withTake(.countdown(endsAt: 3), at: 1), at: 1.5),
                                            named: "take-countdown-2-rot90-mirror")
    }

    @Test func recIsOnBothDisplaysUprightUnderEveryTransform() throws {
        let size = SceneFixtures.display
        let unit = TakeOverlay.unit(size)
        // Inside the badge, clear of its rounded ends.
        let corners: [DisplayRole: PixelRect] = [
            .outer: PixelRect(x: unit + unit / 2, y: unit + unit / 2, width: unit * 4, height: unit),
            .inner: PixelRect(x: size.width - unit * 5 - unit / 2, y: unit + unit / 2, width: unit * 4, height: unit),
        ]
        let red: (UInt32) -> Bool = { $0 & 0xff_ffff == 0xe5_201c }
        var plain: [DisplayRole: [UInt32]] = [:]
        for (transform, name) in OuterPrompterSceneTests.transformNames {
            let replay = try Self.replay(transform, countdown: 0)
            replay.advance(to: 1)
            replay.controller.pause(at: 1)
            let before = Self.region(try SceneFixtures.outer(replay, at: 1.1), corners[.outer]!)
            // No countdown: the take records at once.
            replay.pressRecord()
            #expect(replay.stage.take == .recording)
            for role in [DisplayRole.outer, .inner] {
                let canvas = role == .outer ? try SceneFixtures.outer(replay, at: 1.2)
                    : try SceneFixtures.inner(replay, at: 1.2)
                let pixels = Self.region(canvas, corners[role]!)
                let dot = pixels.contains(where: red)
                #expect(dot, "no red REC dot on \(role) under \(name)")
                if let expected = plain[role] {
                    let same = pixels == expected
                    #expect(same, "REC on \(role) differs under \(name)")
                } else {
                    plain[role] = pixels
                    try SceneReferenceImage.expectMatch(canvas, named: "take-rec-\(role)")
                }
            }
            let dotBefore = before.contains(where: red)
            #expect(!dotBefore)
            #expect(!replay.stage.isAnimating(.outer, at: 1.2), "a paused REC frame needs no redraw")
        }
    }

    /// The record key counts down, records when the countdown ends, and stops the take;
    /// pressed again during the countdown it cancels it.
    @Test func theRecordKeyCountsDownRecordsAndStops() throws {
        let replay = try Self.replay(.identity)
        let recorder = FakeTakeRecorder()
        replay.stage.takes.recorder = recorder
        replay.advance(to: 1)
        replay.stage.handle(.key(KeyPress(code: 0, action: .record, time: 1)))
        #expect(replay.stage.take == .countdown(endsAt: 4))
        replay.advance(to: 2)
        replay.stage.handle(.key(KeyPress(code: 0, action: .record, time: 2)))
        #expect(replay.stage.take == .none && recorder.started.isEmpty, "a second press cancels the countdown")
        replay.stage.handle(.key(KeyPress(code: 0, action: .record, time: 2)))
        replay.advance(to: 4.5)
        #expect(replay.stage.take == .countdown(endsAt: 5), "the cancelled countdown's timer started nothing")
        replay.advance(to: 5.1)
        #expect(replay.stage.take == .recording && recorder.started.count == 1)
        #expect(recorder.started.first?["script"] == replay.controller.script?.id)
        replay.advance(to: 6)
        replay.stage.handle(.key(KeyPress(code: 0, action: .record, time: 6)))
        #expect(recorder.finished.count == 1 && recorder.finished.first?["position_end"] != nil)
        // The REC mark stays until the recorder says the take has ended.
        #expect(replay.stage.take == .recording)
        replay.stage.handle(.takeEnded(message: nil))
        #expect(replay.stage.take == .none)
    }

    /// A take that will have no sound says so before it starts: in `rig ctl record
    /// start`'s reply and on the operator's banner from the countdown on.
    @Test func aTakeWithoutSoundSaysSoBeforeItStarts() throws {
        let replay = try Self.replay(.identity)
        let recorder = FakeTakeRecorder()
        recorder.soundProblem = "no microphone is configured ([audio] input is empty)"
        replay.stage.takes.recorder = recorder
        replay.advance(to: 1)
        let reply = replay.stage.handle(.record(start: true)).body
        #expect(reply["state"]?.stringValue == "countdown")
        #expect(reply["sound"]?.stringValue == "none: no microphone is configured ([audio] input is empty)")
        #expect(replay.stage.problems.lines.contains("This take records no sound: no microphone is configured ([audio] input is empty)"))
        replay.advance(to: 4.5)
        #expect(replay.stage.take == .recording)
        #expect(replay.stage.problems.lines.contains { $0.hasPrefix("This take records no sound") }, "said while it records")
        // With a microphone the reply says so and the banner has nothing to say.
        replay.stage.handle(.key(KeyPress(code: 0, action: .record, time: 4.5)))
        replay.stage.handle(.takeEnded(message: nil))
        recorder.soundProblem = nil
        let withSound = replay.stage.handle(.record(start: true)).body
        #expect(withSound["sound"]?.stringValue == "microphone")
        #expect(!replay.stage.problems.lines.contains { $0.hasPrefix("This take records no sound") })
    }
}

extension ManualClockStage {
    /// Record pressed at `time - countdown` so the countdown shows at `time` as `take` says.
    func withTake(_ take: TakeIndicator, at time: Double) -> ManualClockStage {
        guard case let .countdown(endsAt) = take else { return self }
        advance(to: endsAt - Double(stage.settings.takeCountdown))
        pressRecord()
        advance(to: time)
        return self
    }
}
