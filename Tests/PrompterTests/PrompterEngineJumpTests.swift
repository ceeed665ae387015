import Testing
@testable import Prompter

/// Marker jumps (glides), the countdown before a run and looping at the end, on a
/// manual clock.
@Suite struct PrompterEngineJumpTests {
    let glide = PrompterEngine.glideDuration

    func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }

    func playing(from start: Double, maxOffset: Double = 10_000) -> (PrompterEngine, ManualClock) {
        let clock = ManualClock(start)
        var engine = PrompterEngine()
        engine.setMaxOffset(maxOffset)
        engine.play(at: clock.now())
        return (engine, clock)
    }

    @Test func aJumpWhilePlayingGlidesThereAndKeepsPlayingAtItsRate() {
        var (engine, clock) = playing(from: 100)
        clock.advance(by: 10)
        let before = engine.offset(at: clock.now())
        #expect(close(before, 591))
        engine.jump(to: 2000, at: clock.now())
        // Continuous at the jump: no blink.
        #expect(close(engine.offset(at: clock.now()), before))
        // Halfway through the glide it is between, moving fast.
        let mid = engine.offset(at: clock.now() + glide / 2)
        #expect(mid > before + 500 && mid < 2000 + 60 * glide)
        // Monotonic on the way (a forward jump never goes back).
        var last = before
        for step in 1...30 {
            let value = engine.offset(at: clock.now() + glide * Double(step) / 30)
            #expect(value >= last - 1e-9)
            last = value
        }
        // After the glide: the target plus the reading done meanwhile, at the same rate.
        #expect(close(engine.offset(at: clock.now() + glide), 2000 + 60 * glide))
        #expect(close(engine.currentRate(at: clock.now() + glide + 1), 60))
        #expect(engine.state == .playing)
    }

    @Test func aJumpWhilePausedStaysPausedAndLandsExactly() {
        var (engine, clock) = playing(from: 100)
        clock.advance(by: 5)
        engine.pause(at: clock.now())
        clock.advance(by: 2)
        engine.jump(to: 300, at: clock.now())
        #expect(engine.state == .paused)
        #expect(engine.isMoving(at: clock.now() + glide / 2))
        #expect(close(engine.offset(at: clock.now() + glide), 300))
        #expect(close(engine.offset(at: clock.now() + 10), 300))
        #expect(!engine.isMoving(at: clock.now() + glide + 0.001))
    }

    @Test func aJumpBackWhilePausedIsMovingUntilItLands() {
        // The display loop stops asking for frames when nothing moves: a glide back to
        // an earlier marker (negative rate) froze on its first frame before.
        var (engine, clock) = playing(from: 100)
        clock.advance(by: 10)
        engine.pause(at: clock.now())
        clock.advance(by: 2)
        engine.jump(to: 50, at: clock.now())
        #expect(engine.isMoving(at: clock.now()))
        #expect(engine.isMoving(at: clock.now() + glide / 2))
        #expect(engine.isMoving(at: clock.now() + glide * 0.99))
        #expect(close(engine.offset(at: clock.now() + glide), 50))
        #expect(!engine.isMoving(at: clock.now() + glide + 0.001))
    }

    @Test func aJumpDuringARampKeepsTheRamp() {
        var (engine, clock) = playing(from: 100)
        clock.advance(by: 5)
        engine.setSpeed(120, at: clock.now())
        clock.advance(by: 0.1)
        engine.jump(to: 1000, at: clock.now())
        // The speed ramp (60 → 120 over 0.3 s) still ends 0.2 s later.
        #expect(close(engine.segmentsRampRate(at: clock.now() + 0.2), 120))
        #expect(close(engine.currentRate(at: clock.now() + glide + 0.5), 120))
    }

    @Test func aJumpToTheStartGlidesAndAJumpFromAStopBecomesPaused() {
        var (engine, clock) = playing(from: 100)
        clock.advance(by: 10)
        engine.jump(to: 0, at: clock.now())
        #expect(close(engine.offset(at: clock.now()), 591))
        #expect(engine.offset(at: clock.now() + glide / 2) < 591)
        #expect(close(engine.offset(at: clock.now() + glide), 60 * glide))
        #expect(engine.state == .playing)
        var stopped = PrompterEngine()
        stopped.setMaxOffset(1000)
        stopped.jump(to: 400, at: 50)
        #expect(stopped.state == .paused)
        #expect(close(stopped.offset(at: 50 + glide), 400))
    }

    @Test func pausingMidGlideStillLandsOnTheTarget() {
        var (engine, clock) = playing(from: 100)
        clock.advance(by: 1)
        engine.jump(to: 5000, at: clock.now())
        clock.advance(by: 0.1)
        engine.pause(at: clock.now())
        #expect(engine.state == .paused)
        let landing = engine.offset(at: clock.now() + 2)
        // The target plus what the run covered before and while ramping down.
        #expect(landing > 5000 && landing < 5000 + 60 * 0.5)
        #expect(!engine.isMoving(at: clock.now() + 1))
    }

    @Test func theCountdownHoldsTheTextThenRunsAndATapCancelsIt() {
        let clock = ManualClock(100)
        var engine = PrompterEngine()
        engine.setMaxOffset(10_000)
        engine.countdownSeconds = 3
        engine.play(at: clock.now())
        #expect(engine.countdownShown(at: clock.now()) == 3)
        #expect(engine.countdownShown(at: clock.now() + 1.2) == 2)
        #expect(engine.countdownShown(at: clock.now() + 2.5) == 1)
        #expect(engine.countdownShown(at: clock.now() + 3) == nil)
        #expect(engine.offset(at: clock.now() + 2.9) == 0)
        #expect(close(engine.offset(at: clock.now() + 3 + 10), 591))
        // Resuming from a pause has no countdown.
        clock.advance(by: 5)
        engine.pause(at: clock.now())
        clock.advance(by: 1)
        engine.play(at: clock.now())
        #expect(engine.countdownShown(at: clock.now()) == nil)
        // From a stop it counts again; the toggle (Space, a tap) cancels it.
        engine.stop(at: clock.now())
        engine.play(at: clock.now())
        clock.advance(by: 1)
        engine.togglePlayPause(at: clock.now())
        #expect(engine.state == .stopped)
        #expect(engine.countdownShown(at: clock.now()) == nil)
        #expect(engine.offset(at: clock.now() + 10) == 0)
    }

    /// A move during the 3-2-1 moves where the run starts; the run still starts when the
    /// digits end, at the speed it was going to. A marker jump used to leave the text
    /// still for good, a seek likewise, and back to the top started it under the digits.
    @Test func aMoveDuringTheCountdownMovesWhereTheRunStarts() {
        let moves: [(String, Double, (inout PrompterEngine, Double) -> Void)] = [
            ("jump", 2_000, { $0.jump(to: 2_000, at: $1) }),
            ("seek", 2_000, { $0.seek(to: 2_000, at: $1) }),
            ("rewind", 0, { $0.rewind(at: $1) }),
            ("relayout", 800, { $0.relayout(at: $1, newMaxOffset: 20_000, mapOffset: { $0 + 800 }) }),
        ]
        for (name, start, move) in moves {
            let clock = ManualClock(100)
            var engine = PrompterEngine(speed: 80)
            engine.setMaxOffset(10_000)
            engine.countdownSeconds = 3
            engine.play(at: clock.now())
            clock.advance(by: 1)
            move(&engine, clock.now())
            // Still counting, the text held where the move put it.
            #expect(engine.countdownShown(at: clock.now()) == 2, "\(name)")
            #expect(close(engine.offset(at: clock.now() + 1.9), start), "\(name): \(engine.offset(at: clock.now() + 1.9))")
            // At the countdown's end it runs at its speed: ramped up 0.3 s, then 80 px/s.
            let end = 103.0
            #expect(engine.state == .playing, "\(name)")
            #expect(close(engine.currentRate(at: end + 5), 80), "\(name): \(engine.currentRate(at: end + 5))")
            #expect(close(engine.offset(at: end + 5), start + 80 * (5 - PrompterEngine.rampDuration / 2)),
                    "\(name): \(engine.offset(at: end + 5))")
        }
    }

    @Test func zeroCountdownIsOff() {
        var engine = PrompterEngine()
        engine.setMaxOffset(1000)
        engine.play(at: 10)
        #expect(engine.countdownShown(at: 10) == nil)
        #expect(engine.offset(at: 11) > 0)
    }

    @Test func loopGoesBackToTheTopAndKeepsPlaying() throws {
        var engine = PrompterEngine()
        engine.endBehavior = .loop
        engine.setMaxOffset(591)
        engine.play(at: 100)
        let end = try #require(engine.endTime())
        #expect(close(end, 110))
        engine.commit(at: end)
        #expect(engine.state == .playing)
        #expect(engine.loops == 1)
        #expect(close(engine.offset(at: end), 591))
        #expect(engine.offset(at: end + glide / 2) < 400)
        // The lap starts from rest under the glide: 60·R/2 px once both are over.
        #expect(close(engine.offset(at: end + glide), 60 * glide / 2))
        // The next end is a whole lap later, not the same instant again.
        #expect(try #require(engine.endTime()) > end + 9)
        // Committed late (no one asked at the end), it still went round on time.
        var late = PrompterEngine()
        late.endBehavior = .loop
        late.setMaxOffset(591)
        late.play(at: 100)
        late.commit(at: 112)
        #expect(late.loops == 1)
        #expect(close(late.offset(at: 112), 60 * 2 - 60 * glide / 2))
        // Stop (the default) ends there.
        var stops = PrompterEngine()
        stops.setMaxOffset(591)
        stops.play(at: 100)
        stops.commit(at: 111)
        #expect(stops.state == .stopped)
        #expect(stops.isEnded(at: 111))
    }

    /// A short script looping with nobody committing its ends for an hour (a stalled
    /// loop): the laps are counted as if each end had been committed on time, and the
    /// text is where the last lap has it. Each lap was one call deeper before: at 2 px
    /// from the top to the end, 500 px/s reached the end again 48 µs into each lap's
    /// glide back (see aLapReachesTheEndNoSoonerThanItsGlideBackEnds), and 75 million
    /// laps overflowed the stack.
    @Test func lapsCommittedLateAreThoseCommittedOnTime() throws {
        for maxOffset in [50.0, 2] {
            var late = PrompterEngine(speed: 500), onTime = PrompterEngine(speed: 500)
            late.endBehavior = .loop
            late.setMaxOffset(maxOffset)
            late.play(at: 100)
            onTime.endBehavior = .loop
            onTime.setMaxOffset(maxOffset)
            onTime.play(at: 100)
            late.commit(at: 3_700)
            #expect(late.state == .playing)
            #expect(late.loops > 5_000, "\(late.loops) laps")
            #expect(try #require(late.endTime()) > 3_700)
            guard maxOffset == 50 else { continue }
            // The stage commits each end as its timer fires, a moment after it (at the
            // end's own instant the offset may round a hair short of it): the same laps,
            // the same place.
            while let end = onTime.endTime(), end <= 3_700 { onTime.commit(at: end + 1e-6) }
            onTime.commit(at: 3_700)
            #expect(abs(late.loops - onTime.loops) <= 1, "\(late.loops) against \(onTime.loops)")
            #expect(abs(late.offset(at: 3_700) - onTime.offset(at: 3_700)) < 1,
                    "\(late.offset(at: 3_700)) against \(onTime.offset(at: 3_700))")
        }
    }
}

extension PrompterEngineJumpTests {
    /// Before the layout says where the text ends (no end yet), a jump above the top
    /// lands at the top, as a seek does; it put the text above the top before, and
    /// a run from there moved through nothing until it got back to it.
    @Test func aJumpAboveTheTopBeforeAnyLayoutLandsAtTheTop() {
        var jumped = PrompterEngine(speed: 60), sought = PrompterEngine(speed: 60)
        jumped.play(at: 10)
        sought.play(at: 10)
        jumped.jump(to: -500, at: 11, glide: 0.2)
        sought.seek(to: -500, at: 11)
        #expect(jumped.positionIgnoringGlide(at: 12) == sought.positionIgnoringGlide(at: 12))
        // A second on at 60 px/s both are the same second into the run from the top.
        #expect(abs(jumped.offset(at: 12) - sought.offset(at: 12)) < 1e-9,
                "\(jumped.offset(at: 12)) against \(sought.offset(at: 12))")
        #expect(jumped.offset(at: 12) > 50)
    }

    /// A script whose end is a few pixels from the top, looping fast: each lap's run
    /// outpaced its glide back to the top and reached the end 48 µs into the lap, so
    /// the stage's end timer fired again and again. A lap now reaches the end when its
    /// glide is over at the soonest: ten seconds are at most one commit per glide.
    @Test func aLapReachesTheEndNoSoonerThanItsGlideBackEnds() throws {
        for maxOffset in [2.0, 30, 50] {
            var engine = PrompterEngine(speed: 500)
            engine.endBehavior = .loop
            engine.setMaxOffset(maxOffset)
            engine.play(at: 100)
            var commits = 0
            var last = 100.0
            while let end = engine.endTime(), end <= 110, commits < 1_000 {
                if commits > 0 {
                    #expect(end >= last + PrompterEngine.glideDuration - 1e-9, "\(maxOffset) px: \(end - last) s")
                }
                engine.commit(at: end + 1e-6)
                last = end
                commits += 1
            }
            #expect(commits <= Int(10 / PrompterEngine.glideDuration) + 1, "\(maxOffset) px: \(commits) commits")
            #expect(engine.loops == commits - 1 || engine.loops == commits, "\(engine.loops) laps")
            #expect(engine.state == .playing)
            // Mid-glide the end is not reached, though the run under it may be past it.
            let end = try #require(engine.endTime())
            #expect(!engine.isEnded(at: last + PrompterEngine.glideDuration / 2))
            #expect(end > last)
        }
    }
}

extension PrompterEngine {
    /// The transport's own rate under any glide, for tests of ramps kept through a jump.
    func segmentsRampRate(at t: Double) -> Double { rampRate(at: t) }
}
