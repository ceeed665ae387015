import Testing
@testable import Prompter

/// A hand controller steering the engine: forward, reverse to the top, neutral pauses.
@Suite struct PrompterEngineDriveTests {
    let t0 = 100.0
    let ramp = PrompterEngine.rampDuration

    func engine(at offset: Double = 500) -> PrompterEngine {
        var engine = PrompterEngine()
        engine.open(at: t0 - 10, maxOffset: 5000)
        engine.seek(to: offset, at: t0 - 10)
        return engine
    }

    @Test func forwardPlaysAtTheAskedSpeedWithoutACountdown() {
        var e = engine(at: 0)
        e.countdownSeconds = 3
        e.drive(rate: 120, at: t0)
        #expect(e.state == .playing)
        #expect(e.speed == 120)
        #expect(e.countdownEnd == nil)
        // The usual ramp from rest: 120·(d − R/2) after it.
        #expect(abs(e.offset(at: t0 + 2) - 120 * (2 - ramp / 2)) < 1e-9)
    }

    @Test func reverseScrollsBackThroughTheRampAndStopsAtTheTop() {
        var e = engine(at: 500)
        e.drive(rate: -100, at: t0)
        #expect(e.isReversing)
        #expect(e.isMoving(at: t0 + 1))
        #expect(abs(e.offset(at: t0 + 2) - (500 - 100 * (2 - ramp / 2))) < 1e-9)
        // 500 px back at 100 px/s after a 0.3 s ramp: the top at t0 + 5.15.
        let top = try! #require(e.endTime())
        #expect(abs(top - (t0 + 5 + ramp / 2)) < 1e-6)
        #expect(e.offset(at: top + 3) == 0)
        e.commit(at: top)
        #expect(e.state == .paused)
        #expect(!e.isMoving(at: top + 0.1))
        #expect(e.offset(at: top + 10) == 0)
        // Further reverse at the top does nothing; forward goes on from 0.
        e.drive(rate: -100, at: top + 1)
        #expect(e.state == .paused && e.offset(at: top + 2) == 0)
        e.drive(rate: 60, at: top + 2)
        #expect(e.offset(at: top + 4) > 0)
    }

    /// The status's rate: negative going back and through the ramp to rest (the
    /// forward-only `currentRate` read 0 there, so a paused status seemed settled while
    /// the text still slid), 0 once at rest or at the top.
    @Test func theSignedRateIsNegativeGoingBackUntilTheRampEnds() {
        var e = engine(at: 500)
        e.drive(rate: -50, at: t0)
        #expect(abs(e.signedRate(at: t0 + 1) + 50) < 1e-9)
        #expect(e.currentRate(at: t0 + 1) == 0)
        e.drive(rate: 0, at: t0 + 2)
        #expect(e.state == .paused)
        #expect(abs(e.signedRate(at: t0 + 2 + ramp / 2) + 25) < 1e-9)
        #expect(e.signedRate(at: t0 + 2.5) == 0)
        e.drive(rate: 80, at: t0 + 3)
        #expect(abs(e.signedRate(at: t0 + 4) - 80) < 1e-9)
        // At the top going back: nothing moves.
        var top = engine(at: 0)
        top.drive(rate: -50, at: t0)
        #expect(top.signedRate(at: t0 + 1) == 0)
    }

    @Test func neutralPausesWithTheRampFromEitherDirection() {
        var e = engine(at: 1000)
        e.drive(rate: 200, at: t0)
        e.drive(rate: 0, at: t0 + 1)
        #expect(e.state == .paused)
        let held = e.offset(at: t0 + 1 + ramp)
        #expect(abs(held - e.offset(at: t0 + 5)) < 1e-9)
        // It slid on by half a ramp at 200 px/s, not stopped dead.
        #expect(abs(held - e.offset(at: t0 + 1) - 200 * ramp / 2) < 1e-9)
        e.drive(rate: -50, at: t0 + 6)
        e.drive(rate: 0, at: t0 + 8)
        #expect(e.state == .paused)
        #expect(!e.isMoving(at: t0 + 9))
    }

    @Test func forwardToReverseGoesThroughZeroSmoothly() {
        var e = engine(at: 1000)
        e.drive(rate: 100, at: t0)
        e.drive(rate: -100, at: t0 + 2)
        // The rate ramps from +100 to -100 over R: continuous, never a jump.
        var last = e.offset(at: t0 + 2)
        for step in 1...30 {
            let t = t0 + 2 + Double(step) * 0.01
            let now = e.offset(at: t)
            #expect(abs(now - last) <= 100 * 0.01 + 1e-9)
            last = now
        }
        #expect(e.offset(at: t0 + 4) < e.offset(at: t0 + 3))
    }

    @Test func forwardAtTheEndAsksForNothing() {
        var e = engine(at: 5000)
        e.drive(rate: 100, at: t0)
        #expect(e.offset(at: t0 + 1) == 5000)
        #expect(!e.isMoving(at: t0 + 1))
    }
}
