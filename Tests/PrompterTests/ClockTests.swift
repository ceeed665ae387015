import Testing
@testable import Prompter

@Suite struct ClockTests {
    @Test func manualClockMovesOnlyWhenTold() {
        let clock = ManualClock(10)
        #expect(clock.now() == 10)
        clock.advance(by: 0.5)
        #expect(clock.now() == 10.5)
        clock.advance(by: -3)
        #expect(clock.now() == 10.5)
        clock.set(2)
        #expect(clock.now() == 2)
    }

    @Test func engineDrivenByAManualClock() {
        let clock = ManualClock()
        var engine = PrompterEngine()
        engine.play(at: clock.now())
        clock.advance(by: 10)
        #expect(abs(engine.offset(at: clock.now()) - 591) < 1e-9)
        engine.faster(at: clock.now())
        clock.advance(by: 10)
        #expect(abs(engine.offset(at: clock.now()) - (591 + 700 - 1.5)) < 1e-9)
    }
}
