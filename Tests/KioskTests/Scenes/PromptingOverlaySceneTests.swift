import Foundation
import Prompter
import Render
import Testing
@testable import Kiosk
@testable import Stage

/// The countdown before a run and the talent's remaining-time readout: large or small,
/// always upright (the same pixels) whatever mirror, flip and rotation the text has,
/// on the talent's display and (the countdown) the console.
@Suite struct PromptingOverlaySceneTests {
    static func region(_ canvas: Canvas, _ rect: PixelRect) -> [UInt32] {
        (rect.y..<rect.maxY).flatMap { y in (rect.x..<rect.maxX).map { canvas.pixels[y * canvas.width + $0] } }
    }

    /// Stopped at the top, then Play with a 3 s countdown at t = 1.
    static func counting(_ transform: TextTransform, outerTimer: Bool = false) throws -> ManualClockStage {
        var settings = SceneFixtures.settings(transform: transform)
        settings.countdown = 3
        settings.outerTimer = outerTimer
        let replay = try SceneFixtures.playing(SceneFixtures.english, settings: settings, fonts: SceneFixtures.fonts)
        replay.stage.wallClock = { Date(timeIntervalSince1970: 1_790_000_000) }
        replay.controller.stop(at: 0)
        replay.advance(to: 1)
        replay.controller.play(at: 1)
        return replay
    }

    @Test func theCountdownIsUprightOnBothDisplaysUnderEveryTransform() throws {
        let outer = TakeOverlay.countdownBox(SceneFixtures.display)
        let inset = outer.width * 3 / 20
        let box = PixelRect(x: outer.x + inset, y: outer.y + inset, width: outer.width - 2 * inset,
                            height: outer.height - 2 * inset)
        var plain: [DisplayRole: [UInt32]] = [:]
        for (transform, name) in OuterPrompterSceneTests.transformNames {
            let replay = try Self.counting(transform)
            #expect(replay.stage.isAnimating(.outer, at: 1.5))
            for role in [DisplayRole.outer, .inner] {
                let three = role == .outer ? try SceneFixtures.outer(replay, at: 1.5) : try SceneFixtures.inner(replay, at: 1.5)
                let pixels = Self.region(three, box)
                if let expected = plain[role] {
                    let same = pixels == expected
                    #expect(same, "the countdown on \(role) differs under \(name)")
                } else {
                    plain[role] = pixels
                }
            }
            let one = try SceneFixtures.outer(replay, at: 3.5)
            let changed = Self.region(one, box) != plain[.outer]
            #expect(changed, "3 and 1 look the same under \(name)")
            // Over: no digit, the text moves.
            let after = try SceneFixtures.outer(replay, at: 4.5)
            let gone = Self.region(after, box) != Self.region(one, box)
            #expect(gone, "the countdown stays after its end under \(name)")
            #expect(replay.controller.engine.offset(at: 4.5) > 0)
        }
        let mirroredQuarter = try Self.counting(TextTransform(mirror: true, rotation: .quarter))
        try SceneReferenceImage.expectMatch(try SceneFixtures.outer(mirroredQuarter, at: 1.5),
                                            named: "roll-countdown-3-rot90-mirror")
        try SceneReferenceImage.expectMatch(try SceneFixtures.inner(mirroredQuarter, at: 2.5),
                                            named: "roll-countdown-2-console-rot90-mirror")
        try SceneReferenceImage.expectMatch(try SceneFixtures.outer(Self.counting(.identity), at: 1.5),
                                            named: "roll-countdown-3")
    }

    @Test func theRemainingReadoutIsUprightAndOffByDefault() throws {
        // A quarter turn lays the text out in another column, so the time left differs:
        // compare each transform with the plain one of the same column.
        var plain: [Bool: [UInt32]] = [:]
        for (transform, name) in OuterPrompterSceneTests.transformNames {
            let replay = try Self.counting(transform, outerTimer: true)
            let canvas = try SceneFixtures.outer(replay, at: 6)
            // The top right corner, where the readout sits: the same under every transform.
            let unit = TakeOverlay.unit(SceneFixtures.display)
            // Inside the badge (its right end is a unit from the edge), clear of its round ends.
            let corner = PixelRect(x: SceneFixtures.display.width - unit * 4, y: unit + unit / 2, width: unit * 2 + unit / 2,
                                   height: unit)
            let pixels = Self.region(canvas, corner)
            let quarter = transform.rotation == .quarter || transform.rotation == .threeQuarters
            if let expected = plain[quarter] {
                let same = pixels == expected
                #expect(same, "the remaining readout differs under \(name)")
            } else {
                plain[quarter] = pixels
                if !quarter { try SceneReferenceImage.expectMatch(canvas, named: "outer-timer") }
            }
        }
        let quarter = try Self.counting(TextTransform(mirror: true, rotation: .quarter), outerTimer: true)
        try SceneReferenceImage.expectMatch(try SceneFixtures.outer(quarter, at: 6), named: "outer-timer-rot90-mirror")
        // Off by default: the corner shows the text's background, no badge.
        let off = try Self.counting(.identity)
        let canvas = try SceneFixtures.outer(off, at: 6)
        let unit = TakeOverlay.unit(SceneFixtures.display)
        let corner = PixelRect(x: SceneFixtures.display.width - unit * 3, y: unit + unit / 2, width: unit, height: unit / 2)
        #expect(!Self.region(canvas, corner).contains { $0 & 0xff_ffff == TakeOverlay.backing.xrgb & 0xff_ffff })
    }

    @Test func theConsoleShowsTimersTheEndClockAndMarkers() throws {
        var settings = SceneFixtures.settings()
        settings.countdown = 0
        let replay = try SceneFixtures.playing("# Opening\n" + SceneFixtures.english + "\n# Close\nGood night.",
                                               settings: settings, fonts: SceneFixtures.fonts)
        replay.stage.wallClock = { Date(timeIntervalSince1970: 1_790_000_000) }
        let timers = replay.stage.timers(at: 5)
        #expect(abs(timers.elapsed - 5) < 0.01)
        #expect(timers.endsAt == Date(timeIntervalSince1970: 1_790_000_000).addingTimeInterval(timers.remaining))
        let line = OperatorTimers.line(timers)
        #expect(line.hasPrefix("0:05 elapsed"))
        #expect(line.contains("ends "))
        try SceneReferenceImage.expectMatch(try SceneFixtures.inner(replay, at: 5), named: "console-operator-timers")
    }

    @Test func theReadingLineAndPointerStyleMoveAndHideTheMarker() throws {
        func arrowColumn(_ line: ReadingLine, _ pointer: PointerStyle) throws -> [UInt32] {
            var settings = SceneFixtures.settings()
            settings.readingLine = line
            settings.pointer = pointer
            let replay = try SceneFixtures.playing(SceneFixtures.english, settings: settings, fonts: SceneFixtures.fonts)
            replay.controller.pause(at: 0)
            let canvas = try SceneFixtures.outer(replay, at: 1)
            // The left arrow sits in the margin, two pixels in: one column, top to bottom.
            return (0..<canvas.height).map { canvas.pixels[$0 * canvas.width + 2] & 0xff_ffff }
        }
        let lit = { (column: [UInt32]) in column.indices.filter { column[$0] != 0 } }
        let top = lit(try arrowColumn(.top, .both))
        let middle = lit(try arrowColumn(.middle, .both))
        let height = SceneFixtures.display.height
        #expect(!top.isEmpty && !middle.isEmpty)
        // The band (and its arrows) starts at the reading row and is a line thick (44 px at this size).
        #expect(top.allSatisfy { $0 >= height / 3 - 1 && $0 <= height / 3 + 48 }, Comment(rawValue: "\(top)"))
        #expect(middle.allSatisfy { $0 >= height / 2 - 1 && $0 <= height / 2 + 48 }, Comment(rawValue: "\(middle)"))
        #expect(lit(try arrowColumn(.middle, .none)).isEmpty)
        #expect(lit(try arrowColumn(.middle, .band)).count > lit(try arrowColumn(.middle, .arrows)).count / 2)
        #expect(!lit(try arrowColumn(.middle, .arrows)).isEmpty)
    }
}
