import Foundation
import Prompter
import Testing
@testable import Stage

/// What the operator's keys and the talent's tap mean while voice follow steers: the
/// speed keys move the reading line ahead of or behind the voice, jumps and resumes
/// re-anchor follow, a tap during follow's hold is a pause.
@Suite struct FollowKeysTests {
    /// One word every 20 px (3 words a line of 60 px); a marker on word 150's line.
    private static let offsets = (0..<300).map { Double($0) * 20 }

    private func following() -> PrompterController {
        let controller = PrompterController(library: nil, stateDirectory: nil, defaults: .standard, wordsPerMinute: 150)
        let text = (0..<300).map { "w\($0)" }.joined(separator: " ")
        controller.openText(.init(id: "a.txt", title: "A", text: text, wordCount: 300, repaired: false,
                                  markers: [ScriptMarker(name: "Middle", textOffset: 3000)]), at: 0)
        // Text offset n sits at scroll offset n (a marker at 3000 is 3000 px down).
        controller.markerLayout = MarkerLayout(offsetOfText: { Double($0) }, textAtOffset: { Int($0) },
                                               wordsPerPixel: { 0.05 }, lineIndex: { Int($0 / 60) })
        controller.layoutChanged(at: 0, maxOffset: 6000) { $0 }
        controller.follow.driver = FollowDriver(wordOffsets: Self.offsets, lineHeight: 60, fixedSpeed: controller.settings.speed)
        controller.play(at: 0)
        return controller
    }

    /// The talent reads 2 words a second from `firstWord`, heard at once; the loop drives at 10 Hz.
    private func read(_ controller: PrompterController, from: Double, until: Double, firstWord: Int = 0,
                      confidence: Double = 1) {
        var t = from
        while t < until - 1e-9 {
            controller.follow.driver?.heard(word: firstWord + Int((t - from) * 2), confidence: confidence, heardAt: t)
            controller.driveFollow(at: t)
            t += 0.1
        }
    }

    private func silence(_ controller: PrompterController, from: Double, until: Double) {
        var t = from
        while t < until - 1e-9 { controller.driveFollow(at: t); t += 0.1 }
    }

    @Test func fasterAndSlowerMoveTheReadingLineAheadOfTheVoiceWhileFollowSteers() {
        let plain = following(), ahead = following()
        read(plain, from: 0, until: 5)
        read(ahead, from: 0, until: 5)
        let speed = ahead.settings.speed
        ahead.perform(.faster, at: 5)
        ahead.perform(.faster, at: 5)
        #expect(ahead.follow.driver?.lead == 1, "two presses: a line ahead")
        #expect(ahead.settings.speed == speed, "the operator's fixed speed is not what the key changed")
        read(plain, from: 5, until: 9, firstWord: 10)
        read(ahead, from: 5, until: 9, firstWord: 10)
        // The same voice; the reading line a line (60 px) further on.
        let gap = ahead.engine.offset(at: 9) - plain.engine.offset(at: 9)
        #expect(abs(gap - 60) <= 12, "the reading line is \(gap) px ahead, not a line")
        for _ in 0..<12 { ahead.perform(.slower, at: 9) }
        #expect(ahead.follow.driver?.lead == -FollowDriver.maxLead, "the lead stops at 3 lines behind")
        #expect(ahead.settings.speed == speed)
    }

    @Test func theSpeedKeysChangeTheSpeedWhenFollowIsNotSteering() {
        let controller = following()
        // Nothing heard yet: follow waits at the fixed speed, the keys are the operator's.
        controller.driveFollow(at: 0.5)
        controller.perform(.faster, at: 1)
        #expect(controller.engine.speed == ReadingSettings.standard.speed + 10)
        #expect(controller.settings.speed == ReadingSettings.standard.speed + 10)
        #expect(controller.follow.driver?.lead == 0)
        // Lost (nothing matches for over 4 s): handed back at that speed, and the keys change it.
        read(controller, from: 1, until: 4)
        read(controller, from: 4, until: 9.5, firstWord: 6, confidence: 0)
        #expect(controller.follow.driver?.mode == .lost)
        #expect(controller.engine.speed == ReadingSettings.standard.speed + 10, "handed back at the operator's latest speed")
        controller.perform(.slower, at: 10)
        #expect(controller.engine.speed == ReadingSettings.standard.speed)
        #expect(controller.follow.driver?.lead == 0)
    }

    @Test func aTapDuringFollowsHoldIsTheTalentsPause() {
        let controller = following()
        read(controller, from: 0, until: 3)
        silence(controller, from: 3, until: 5)
        #expect(controller.follow.driver?.isHolding == true)
        #expect(controller.engine.state == .paused)
        controller.tap(at: 5)
        #expect(controller.engine.state == .paused, "the tap started the text follow was holding")
        #expect(controller.pausedByTap)
        #expect(controller.follow.driver?.isHolding == false)
        // The talent talks to the crew: follow hears it but leaves the talent's pause alone.
        let still = controller.engine.offset(at: 5.5)
        read(controller, from: 5.5, until: 8, firstWord: 7)
        #expect(controller.engine.state == .paused)
        #expect(abs(controller.engine.offset(at: 8) - still) < 0.001)
        // The second tap plays, and follow starts again from the reading line.
        controller.tap(at: 8)
        #expect(controller.engine.state == .playing)
        let word = Int((still + 0.5) / 20)
        #expect(controller.follow.driver?.anchor == FollowDriver.Anchor(word: word, time: 8))
        #expect(controller.follow.driver?.word == word)
    }

    @Test func thePauseKeyDuringFollowsHoldIsTheOperatorsPause() {
        let controller = following()
        read(controller, from: 0, until: 3)
        silence(controller, from: 3, until: 5)
        controller.perform(.playPause, at: 5)
        #expect(controller.engine.state == .paused)
        read(controller, from: 5.5, until: 7, firstWord: 7)
        #expect(controller.engine.state == .paused, "follow resumed the operator's pause")
        controller.perform(.playPause, at: 7)
        #expect(controller.engine.state == .playing)
    }

    @Test func aSpeedKeyDuringFollowsHoldMovesTheTextAtOnce() {
        let controller = following()
        read(controller, from: 0, until: 3)
        silence(controller, from: 3, until: 5)
        let held = controller.engine.positionIgnoringGlide(at: 5)
        controller.perform(.faster, at: 5)
        #expect(controller.engine.state == .paused)
        #expect(abs(controller.engine.offset(at: 6) - (held + 30)) < 0.5, "half a line on, gliding there")
    }

    @Test func aJumpReAnchorsFollowAtTheMarker() {
        let controller = following()
        read(controller, from: 0, until: 4)
        let before = controller.engine.offset(at: 4)
        let marker = try? controller.jump(to: .next, at: 4)
        #expect(marker?.offset == 3000)
        #expect(controller.follow.driver?.anchor == FollowDriver.Anchor(word: 150, time: 4))
        #expect(controller.follow.driver?.word == 150)
        // Follow goes on from the marker at the talent's pace; it does not pull back.
        silence(controller, from: 4, until: 5)
        let after = controller.engine.offset(at: 5)
        #expect(after >= 3000 && after <= 3000 + 60, "the reading line is at \(after), before the jump \(before)")
        // And the start: word 0.
        try? controller.jump(to: .start, at: 6)
        #expect(controller.follow.driver?.anchor == FollowDriver.Anchor(word: 0, time: 6))
    }
}
