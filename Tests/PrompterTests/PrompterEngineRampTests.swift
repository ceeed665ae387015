import Testing
@testable import Prompter

/// Ramps, closed-form offsets, auto-stop, relayout and pausing in the past.
@Suite struct PrompterEngineRampTests {
    let t0 = 100.0
    let ramp = PrompterEngine.rampDuration

    func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    // MARK: Ramps and closed form

    @Test func sixtyFromRestForTenSecondsCovers591() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        #expect(close(engine.offset(at: t0 + 10), 600 - 60 * 0.15))
        #expect(close(engine.offset(at: t0 + 10), 591))
    }

    @Test func playRampsTheRateLinearly() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        #expect(engine.currentRate(at: t0) == 0)
        #expect(close(engine.currentRate(at: t0 + 0.1), 20))
        #expect(close(engine.currentRate(at: t0 + 0.15), 30))
        #expect(close(engine.currentRate(at: t0 + ramp), 60))
        #expect(close(engine.currentRate(at: t0 + 5), 60))
        // Inside the ramp the offset is the integral r·d²/(2R).
        #expect(close(engine.offset(at: t0 + 0.2), 60 * 0.04 / (2 * ramp)))
    }

    @Test func speedChangeRampsFromTheOldRateAndBanksTheDistance() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.setSpeed(120, at: t0 + 10)
        #expect(close(engine.currentRate(at: t0 + 10), 60))
        #expect(close(engine.currentRate(at: t0 + 10.15), 90))
        #expect(close(engine.currentRate(at: t0 + 10.3), 120))
        // 591 banked, then 120·10 − (120 − 60)·0.15 in the next ten seconds.
        #expect(close(engine.offset(at: t0 + 20), 591 + 1200 - 9))
    }

    @Test func slowingDownRampsToo() {
        var engine = PrompterEngine(speed: 300)
        engine.play(at: t0)
        engine.setSpeed(10, at: t0 + 5)
        #expect(close(engine.currentRate(at: t0 + 5.15), 155))
        let expected: Double = (1500 - 45) + (100 + 43.5)   // 300·5 − 300·0.15, then 10·10 + 290·0.15
        #expect(close(engine.offset(at: t0 + 15), expected))
    }

    @Test func speedChangeMidRampStartsFromTheActualRate() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.setSpeed(200, at: t0 + 0.15)   // rate is 30 there, not 60
        #expect(close(engine.currentRate(at: t0 + 0.15), 30))
        #expect(close(engine.currentRate(at: t0 + 0.3), 115))
        #expect(close(engine.currentRate(at: t0 + 0.45), 200))
    }

    @Test func pauseRampsTheRateDownOverThreeTenths() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.pause(at: t0 + 10)
        // The ramp down is linear and lasts rampDuration: rate halves in half of it.
        let samples = stride(from: 9.8, through: 10.3, by: 0.01).map { engine.currentRate(at: t0 + $0) }
        let steps = zip(samples, samples.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { $0 <= 1e-9 && $0 >= -60 * 0.01 / ramp - 1e-9 })
        #expect(engine.currentRate(at: t0 + 10 + ramp) == 0)
        #expect(close(engine.currentRate(at: t0 + 10 - ramp / 2), 60))
        #expect(close(engine.currentRate(at: t0 + 10), 30))
    }

    @Test func resumeDuringThePauseRampStartsFromTheActualRate() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.pause(at: t0 + 10)
        engine.resume(at: t0 + 10.05)
        let rateThere = 60 * (1 - (0.05 + 0.15) / ramp)
        #expect(close(engine.currentRate(at: t0 + 10.05), rateThere))
        #expect(close(engine.currentRate(at: t0 + 10.35), 60))
    }

    @Test func offsetHasNoJumpsAcrossChanges() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.setSpeed(300, at: t0 + 1)
        engine.setSpeed(10, at: t0 + 1.1)
        engine.pause(at: t0 + 2)
        engine.resume(at: t0 + 2.2)
        let dt = 0.001
        var previous = engine.offset(at: t0 - dt)
        for i in 0...4000 {
            let now = engine.offset(at: t0 + Double(i) * dt)
            // Never faster than the top speed, never backwards.
            #expect(now - previous <= 300 * dt + 1e-6)
            #expect(now - previous >= -1e-6)
            previous = now
        }
    }

    // MARK: Offset as a pure function of time

    @Test func sameTimeGivesTheSameAnswerAndFutureTimesAreFine() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        let future = engine.offset(at: t0 + 7.016)
        let again = engine.offset(at: t0 + 7.016)
        #expect(future == again)
        for i in 0..<1000 { _ = engine.offset(at: t0 + Double(i) / 100) }
        #expect(engine.offset(at: t0 + 7.016) == future)
    }

    @Test func manyFramesAccumulateNothing() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        var frames = engine
        for frame in 0..<6000 { _ = frames.offset(at: t0 + Double(frame) / 60) }
        frames.setSpeed(90, at: t0 + 50)
        engine.setSpeed(90, at: t0 + 50)
        #expect(frames.offset(at: t0 + 100) == engine.offset(at: t0 + 100))
        let expected: Double = (3000 - 9) + (4500 - 4.5)   // two closed-form runs
        #expect(close(engine.offset(at: t0 + 100), expected))
    }

    // MARK: Auto-stop

    @Test func autoStopHoldsTheEnd() {
        var engine = PrompterEngine()
        engine.setMaxOffset(300)
        engine.play(at: t0)
        #expect(engine.offset(at: t0 + 60) == 300)
        #expect(engine.isEnded(at: t0 + 60))
        #expect(engine.state(at: t0 + 60) == .stopped)
        #expect(engine.currentRate(at: t0 + 60) == 0)
        #expect(!engine.isEnded(at: t0 + 1))
    }

    @Test func endTimePredictsTheAutoStop() throws {
        var engine = PrompterEngine()
        engine.setMaxOffset(591)
        engine.play(at: t0)
        let end = try #require(engine.endTime())
        #expect(close(end, t0 + 10, 1e-9))
        #expect(!engine.isEnded(at: end - 0.001))
        #expect(engine.isEnded(at: end))
    }

    @Test func playAfterTheEndStartsFromTheTop() {
        var engine = PrompterEngine()
        engine.setMaxOffset(100)
        engine.play(at: t0)
        engine.play(at: t0 + 30)
        #expect(engine.state == .playing)
        #expect(engine.offset(at: t0 + 30) == 0)
        #expect(close(engine.offset(at: t0 + 31), 60 - 9))
    }

    @Test func commandsAfterTheEndSeeAStoppedEngine() {
        var engine = PrompterEngine()
        engine.setMaxOffset(100)
        engine.play(at: t0)
        engine.pause(at: t0 + 30)
        #expect(engine.state == .stopped)
        #expect(engine.isEnded(at: t0 + 31))
        #expect(engine.offset(at: t0 + 31) == 100)
        engine.stop(at: t0 + 32)
        #expect(engine.offset(at: t0 + 32) == 0)
        #expect(!engine.isEnded(at: t0 + 32))
    }

    @Test func shrinkingTheEndBelowTheOffsetEndsPlayback() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.setMaxOffset(50)
        #expect(engine.isEnded(at: t0 + 10))
        #expect(engine.offset(at: t0 + 10) == 50)
    }

    // MARK: Layout changes

    @Test func relayoutKeepsTheSameWordAndTheRate() {
        var engine = PrompterEngine()
        engine.setMaxOffset(10_000)
        engine.play(at: t0)
        let before = engine.offset(at: t0 + 10)         // 591: word N at this offset
        // The font doubled: word N is now at twice the offset.
        engine.relayout(at: t0 + 10, newMaxOffset: 20_000) { $0 * 2 }
        #expect(close(engine.offset(at: t0 + 10), before * 2))
        #expect(close(engine.currentRate(at: t0 + 10), 60))
        #expect(close(engine.offset(at: t0 + 11), before * 2 + 60))
        #expect(engine.maxOffset == 20_000)
    }

    @Test func relayoutMidRampKeepsWhatIsLeftOfTheRamp() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.relayout(at: t0 + 0.1, newMaxOffset: .infinity) { $0 + 1000 }
        #expect(close(engine.currentRate(at: t0 + 0.15), 30))
        #expect(close(engine.offset(at: t0 + 10), 591 + 1000))
    }

    @Test func relayoutWhilePausedHoldsTheMappedPosition() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.pause(at: t0 + 5)
        engine.relayout(at: t0 + 8, newMaxOffset: 5000) { $0 / 2 }
        let held = engine.offset(at: t0 + 8)
        #expect(engine.offset(at: t0 + 20) == held)
        #expect(engine.state == .paused)
    }

    // MARK: Pausing at a past time

    @Test func pauseAtAPastTimeHoldsTheOffsetOfThatInstant() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        let atTouch = engine.offset(at: t0 + 5)
        _ = engine.offset(at: t0 + 5.04)      // frames drawn after the touch
        engine.pause(at: t0 + 5)              // the touch's timestamp, learnt late
        #expect(close(engine.offset(at: t0 + 5.04 + ramp), atTouch))
        #expect(close(engine.offset(at: t0 + 30), atTouch))
    }

    @Test func pauseAtAPastTimeDuringTheStartRampStillHoldsThatInstant() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        let atTouch = engine.offset(at: t0 + 0.1)
        engine.pause(at: t0 + 0.1)
        #expect(close(engine.offset(at: t0 + 5), atTouch))
        #expect(engine.offset(at: t0 + 5) > 0)
    }

    @Test func pauseAtAPastTimeWinsOverLaterSpeedChanges() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        let atTouch = engine.offset(at: t0 + 5)
        engine.setSpeed(200, at: t0 + 5.02)
        engine.pause(at: t0 + 5)
        #expect(close(engine.offset(at: t0 + 9), atTouch))
        #expect(engine.speed == 200)            // the next resume uses the new speed
    }

    @Test func pauseBeforePlaybackStartedKeepsTheTop() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.pause(at: t0 - 0.05)
        #expect(engine.state == .paused)
        #expect(engine.offset(at: t0 + 5) == 0)
    }
}
