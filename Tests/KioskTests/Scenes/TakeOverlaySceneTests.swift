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

    static func replay(_ transform: TextTransform) throws -> StageReplay {
        try SceneFixtures.playing(SceneFixtures.english, settings: SceneFixtures.settings(transform: transform),
                                  fonts: SceneFixtures.fonts)
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
            replay.stage.setTake(.countdown(endsAt: 4))
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
            let replay = try Self.replay(transform)
            replay.advance(to: 1)
            replay.controller.pause(at: 1)
            let before = Self.region(try SceneFixtures.outer(replay, at: 1.1), corners[.outer]!)
            replay.stage.setTake(.recording)
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

    @Test func theRecordButtonAndKeyAskTheKiosk() throws {
        let replay = try Self.replay(.identity)
        var asked: [Bool] = []
        replay.stage.recordWanted = { asked.append($0) }
        replay.stage.handle(.key(KeyPress(code: 0, action: .record, time: 1)))
        replay.stage.setTake(.recording)
        replay.stage.handle(.key(KeyPress(code: 0, action: .record, time: 2)))
        #expect(asked == [true, false])
    }
}

extension StageReplay {
    func withTake(_ take: TakeIndicator, at time: Double) -> StageReplay {
        advance(to: time)
        stage.setTake(take)
        return self
    }
}
