import Foundation
import Prompter
import Testing
@testable import Stage

/// Who steers the speed with hand controllers plugged in (issue 40): the one off rest
/// owns it, rest pauses, an unplug while steering pauses and says so, and the wheel and
/// jog move the text by lines while paused.
@Suite struct HandControllersTests {
    private func prompter() -> (PrompterController, HandControllers, ProblemBoard) {
        let problems = ProblemBoard()
        let controller = PrompterController(library: nil, stateDirectory: nil, defaults: .standard, wordsPerMinute: 150,
                                            problems: problems)
        let text = (0..<300).map { "w\($0)" }.joined(separator: " ")
        controller.openText(.init(id: "a.txt", title: "A", text: text, wordCount: 300, repaired: false), at: 0)
        controller.layoutChanged(at: 0, maxOffset: 6000) { $0 }
        let hands = HandControllers(controller: controller, problems: problems)
        hands.lineHeight = { 60 }
        return (controller, hands, problems)
    }

    private func shuttle(_ speed: Double, id: String = "event7") -> ControllerReading {
        ControllerReading(id: id, name: "Contour Design ShuttleXpress", kind: .shuttle, axis: "ring -7…7",
                          raw: speed == 0 ? 0 : 3, travel: speed == 0 ? 0 : 0.4, speed: speed)
    }

    @Test func offRestTheControllerOwnsTheSpeedAndBackAtRestThePromptPauses() {
        let (controller, hands, _) = prompter()
        hands.handle(.added(shuttle(0)), handledAt: 0)
        hands.handle(.moved(shuttle(110), time: 1), handledAt: 1)
        #expect(controller.engine.state == .playing)
        #expect(controller.engine.speed == 110)
        #expect(controller.speedHeldBy == "Contour Design ShuttleXpress")
        // The speed keys do not fight the hand on the ring.
        controller.perform(.faster, at: 2)
        #expect(controller.engine.speed == 110)
        hands.handle(.moved(shuttle(-50), time: 3), handledAt: 3)
        #expect(controller.engine.isReversing)
        hands.handle(.moved(shuttle(0), time: 4), handledAt: 4)
        #expect(controller.engine.state == .paused)
        #expect(controller.speedHeldBy == nil)
        controller.perform(.faster, at: 5)
        #expect(controller.engine.speed == 60, "free again: the keys' step from the reverse speed of 50")
    }

    @Test func unpluggedWhileSteeringPausesAndSaysSoOnTheBanner() {
        let (controller, hands, problems) = prompter()
        hands.handle(.added(shuttle(0)), handledAt: 0)
        hands.handle(.moved(shuttle(75), time: 1), handledAt: 1)
        hands.handle(.removed(id: "event7", time: 2), handledAt: 2)
        #expect(controller.engine.state == .paused)
        #expect(!controller.engine.isMoving(at: 3))
        #expect(problems.lines(of: HandControllers.problemSource)
                == ["Contour Design ShuttleXpress was unplugged while it steered: the text is paused"])
        // Plugged in again and moved: steering again, the banner line gone.
        hands.handle(.added(shuttle(0)), handledAt: 4)
        hands.handle(.moved(shuttle(30), time: 5), handledAt: 5)
        #expect(problems.lines(of: HandControllers.problemSource).isEmpty)
        #expect(controller.engine.state == .playing)
    }

    @Test func anUnplugAtRestChangesNothing() {
        let (controller, hands, problems) = prompter()
        controller.play(at: 0)
        hands.handle(.added(shuttle(0)), handledAt: 0)
        hands.handle(.removed(id: "event7", time: 1), handledAt: 1)
        #expect(controller.engine.state == .playing)
        #expect(problems.lines(of: HandControllers.problemSource).isEmpty)
    }

    @Test func theJogAndTheWheelMoveTheTextByLinesWhilePaused() {
        let (controller, hands, _) = prompter()
        hands.settings = .init(wheel: .scroll, wheelLines: 2, jogLines: 1)
        hands.handle(.added(shuttle(0)), handledAt: 0)
        hands.handle(.jogged(id: "event7", detents: 3, time: 1), handledAt: 1)
        #expect(controller.engine.offset(at: 2) == 180)
        hands.handle(.wheel(steps: -1, time: 3), handledAt: 3)
        #expect(controller.engine.offset(at: 4) == 60)
        // Playing, the wheel changes the speed instead.
        controller.play(at: 5)
        hands.handle(.wheel(steps: 2, time: 6), handledAt: 6)
        #expect(controller.engine.speed == 80)
    }

    @Test func theLatencyIsFromTheEventToTheFirstFlipDrawnAfterIt() {
        let (_, hands, _) = prompter()
        hands.handle(.added(shuttle(0)), handledAt: 0)
        hands.handle(.moved(shuttle(50), time: 1.000), handledAt: 1.002)
        hands.outerFlipped(at: 1.010, drawnFor: 0.995)   // drawn before the change
        hands.outerFlipped(at: 1.027, drawnFor: 1.027)
        #expect(hands.latency.summary.count == 1)
        #expect(abs((hands.latency.summary.medianMilliseconds ?? 0) - 27) < 0.001)
    }

    @Test func whileTheGameHasTheDisplaysReadingsStayTrueButNothingSteers() {
        let (controller, hands, _) = prompter()
        hands.handle(.added(shuttle(0)), handledAt: 0, steers: false)
        hands.handle(.moved(shuttle(110), time: 1), handledAt: 1, steers: false)
        hands.handle(.jogged(id: "event7", detents: 2, time: 2), handledAt: 2, steers: false)
        hands.handle(.wheel(steps: 3, time: 2), handledAt: 2, steers: false)
        #expect(controller.engine.state != .playing)
        #expect(controller.engine.offset(at: 3) == 0)
        #expect(controller.speedHeldBy == nil)
        #expect(hands.shown.controllers.map(\.speed) == [110], "the status shows where the ring is")
        // Back to the prompter, the ring still off rest steers once it moves again.
        hands.handle(.moved(shuttle(75), time: 4), handledAt: 4)
        #expect(controller.engine.state == .playing)
        #expect(controller.engine.speed == 75)
    }
}
