import Testing
@testable import Prompter

/// Engine behaviour with explicit times (a manual clock's readings): no sleeps.
@Suite struct PrompterEngineTests {
    let t0 = 100.0
    let ramp = PrompterEngine.rampDuration

    func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    // MARK: State machine

    @Test func opensStoppedAtTheTopWithDefaultSpeed() {
        let engine = PrompterEngine()
        #expect(engine.state == .stopped)
        #expect(engine.offset(at: t0) == 0)
        #expect(engine.offset(at: t0 + 60) == 0)
        #expect(engine.speed == 60)
        #expect(!engine.isEnded(at: t0))
    }

    @Test func playStartsScrolling() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        #expect(engine.state == .playing)
        #expect(engine.offset(at: t0) == 0)
        #expect(engine.offset(at: t0 + 1) > 0)
    }

    @Test func pauseKeepsThePosition() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.pause(at: t0 + 5)
        let held = engine.offset(at: t0 + 5 + ramp)
        #expect(engine.state == .paused)
        #expect(engine.offset(at: t0 + 60) == held)
        #expect(held > 0)
    }

    @Test func resumeContinuesFromThePausedPosition() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.pause(at: t0 + 5)
        let held = engine.offset(at: t0 + 20)
        engine.resume(at: t0 + 20)
        #expect(engine.state == .playing)
        #expect(engine.offset(at: t0 + 20) == held)
        // After the ramp the text moves at 60 px/s again, from where it was held.
        #expect(close(engine.offset(at: t0 + 30), held + 600 - 60 * ramp / 2))
    }

    @Test func stopReturnsToTheTop() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.stop(at: t0 + 3)
        #expect(engine.state == .stopped)
        #expect(engine.offset(at: t0 + 3) == 0)
        #expect(engine.offset(at: t0 + 10) == 0)
    }

    @Test func stopFromPausedReturnsToTheTop() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.pause(at: t0 + 3)
        engine.stop(at: t0 + 4)
        #expect(engine.state == .stopped)
        #expect(engine.offset(at: t0 + 4) == 0)
    }

    @Test func rewindWhilePlayingKeepsPlayingFromTheTop() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.rewind(at: t0 + 5)
        #expect(engine.state == .playing)
        #expect(engine.offset(at: t0 + 5) == 0)
        #expect(close(engine.offset(at: t0 + 15), 591))
    }

    @Test func rewindWhilePausedStaysPausedAtTheTop() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.pause(at: t0 + 5)
        engine.rewind(at: t0 + 6)
        #expect(engine.state == .paused)
        #expect(engine.offset(at: t0 + 6) == 0)
        #expect(engine.offset(at: t0 + 9) == 0)
    }

    @Test func togglePlayPauseAlternates() {
        var engine = PrompterEngine()
        engine.togglePlayPause(at: t0)
        #expect(engine.state == .playing)
        engine.togglePlayPause(at: t0 + 2)
        #expect(engine.state == .paused)
        engine.togglePlayPause(at: t0 + 4)
        #expect(engine.state == .playing)
    }

    @Test func playWhilePlayingDoesNotRestartTheRamp() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        let before = engine.offset(at: t0 + 10)
        engine.play(at: t0 + 5)
        #expect(engine.offset(at: t0 + 10) == before)
    }

    @Test func resumeWhenStoppedDoesNothing() {
        var engine = PrompterEngine()
        engine.resume(at: t0)
        #expect(engine.state == .stopped)
        #expect(engine.offset(at: t0 + 5) == 0)
    }

    // MARK: Speed

    @Test func speedConstants() {
        #expect(ScrollSpeed.range == 10...300)
        #expect(ScrollSpeed.step == 10)
        #expect(PrompterEngine.rampDuration == 0.3)
        #expect(ScrollSpeed.defaultValue == 60)
    }

    @Test func directSetTakesAnyIntegerInRange() {
        var engine = PrompterEngine()
        engine.setSpeed(73, at: t0)
        #expect(engine.speed == 73)
    }

    @Test func directSetIsClamped() {
        var engine = PrompterEngine()
        engine.setSpeed(1000, at: t0)
        #expect(engine.speed == 300)
        engine.setSpeed(-5, at: t0 + 1)
        #expect(engine.speed == 10)
        engine.setSpeed(Int.min, at: t0 + 2)
        #expect(engine.speed == 10)
    }

    @Test func fasterAndSlowerStepByTen() {
        var engine = PrompterEngine()
        engine.faster(at: t0)
        #expect(engine.speed == 70)
        engine.slower(at: t0 + 1)
        engine.slower(at: t0 + 2)
        #expect(engine.speed == 50)
    }

    @Test func fasterNeverExceedsTheMaximum() {
        var engine = PrompterEngine(speed: 295)
        for step in 0..<5 { engine.faster(at: t0 + Double(step)) }
        #expect(engine.speed == 300)
    }

    @Test func slowerNeverGoesBelowTheMinimum() {
        var engine = PrompterEngine(speed: 15)
        for step in 0..<5 { engine.slower(at: t0 + Double(step)) }
        #expect(engine.speed == 10)
    }

    @Test func initializerAndSettingsClampTheSameWay() {
        #expect(PrompterEngine(speed: 0).speed == 10)
        #expect(PrompterEngine(speed: 301).speed == 300)
        #expect(ReadingSettings(speed: 5).speed == 10)
        var settings = ReadingSettings()
        settings.speed = 999
        #expect(settings.speed == 300)
    }

    @Test func speedChangeWhilePausedAppliesOnResume() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.pause(at: t0 + 2)
        engine.setSpeed(120, at: t0 + 3)
        let held = engine.offset(at: t0 + 3)
        #expect(engine.offset(at: t0 + 4) == held)
        engine.resume(at: t0 + 5)
        #expect(close(engine.currentRate(at: t0 + 5 + ramp), 120))
    }
}

@Suite struct PrompterEngineSeekTests {
    let t0 = 100.0

    @Test func openingAScriptIsStoppedAtTheTop() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.open(at: t0 + 5, maxOffset: 2_000)
        #expect(engine.state == .stopped)
        #expect(engine.offset(at: t0 + 6) == 0)
        #expect(engine.maxOffset == 2_000)
    }

    @Test func seekRestoresAPositionPaused() {
        var engine = PrompterEngine()
        engine.open(at: t0, maxOffset: 1_000)
        engine.seek(to: 420, at: t0)
        #expect(engine.state == .paused)
        #expect(engine.offset(at: t0 + 10) == 420)
        engine.resume(at: t0 + 10)
        #expect(abs(engine.offset(at: t0 + 11) - (420 + 60 - 9)) < 1e-9)
        engine.seek(to: 5_000, at: t0 + 12)
        #expect(engine.isEnded(at: t0 + 12))
        #expect(engine.offset(at: t0 + 12) == 1_000)
    }

    @Test func seekWhilePlayingKeepsPlaying() {
        var engine = PrompterEngine()
        engine.play(at: t0)
        engine.seek(to: 100, at: t0 + 5)
        #expect(engine.state == .playing)
        #expect(abs(engine.offset(at: t0 + 6) - 160) < 1e-9)
    }
}
