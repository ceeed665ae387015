import Prompter
import Testing

@Suite struct FollowDriverTests {
    /// One word every 20 px (3 words a line of 60 px).
    private let offsets = (0..<300).map { Double($0) * 20 }

    private func playing() -> PrompterEngine {
        var engine = PrompterEngine(speed: 60)
        engine.open(at: 0, maxOffset: 6000)
        engine.play(at: 0)
        return engine
    }

    /// The talent reads `wordsPerSecond` from word 0 until `until`, heard instantly; driven at 10 Hz.
    private func run(_ engine: inout PrompterEngine, _ driver: inout FollowDriver, from: Double, until: Double,
                     wordsPerSecond: Double, firstWord: Int = 0) {
        var t = from
        while t < until {
            let word = firstWord + Int((t - from) * wordsPerSecond)
            driver.heard(word: word, confidence: 1, heardAt: t)
            driver.drive(&engine, at: t)
            t += 0.1
        }
    }

    @Test func tracksThePaceOfSpeech() {
        var engine = playing()
        var driver = FollowDriver(wordOffsets: offsets, lineHeight: 60, fixedSpeed: 60)
        // 2 words a second = 40 px/s, slower than the fixed 60.
        run(&engine, &driver, from: 0, until: 10, wordsPerSecond: 2)
        #expect(driver.mode == .tracking)
        #expect(abs((engine.offset(at: 10)) - (offsets[20])) <= 30, "reading line on the spoken word")
        #expect(abs((Double(engine.speed)) - (40)) <= 8)
    }

    @Test func holdsWhenTheTalentPausesAndResumesAfter() {
        var engine = playing()
        var driver = FollowDriver(wordOffsets: offsets, lineHeight: 60, fixedSpeed: 60)
        run(&engine, &driver, from: 0, until: 5, wordsPerSecond: 2)
        for step in 0..<30 { driver.drive(&engine, at: 5 + Double(step) / 10) }
        #expect(driver.mode == .holding)
        #expect(engine.state == .paused)
        let held = engine.offset(at: 8)
        #expect(abs((engine.offset(at: 7)) - (held)) <= 0.001, "still during the pause")
        run(&engine, &driver, from: 8, until: 9, wordsPerSecond: 2, firstWord: 11)
        #expect(engine.state == .playing)
        #expect(driver.mode == .tracking)
    }

    @Test func operatorPauseIsLeftAlone() {
        var engine = playing()
        var driver = FollowDriver(wordOffsets: offsets, lineHeight: 60, fixedSpeed: 60)
        run(&engine, &driver, from: 0, until: 3, wordsPerSecond: 2)
        engine.pause(at: 3)
        run(&engine, &driver, from: 3, until: 6, wordsPerSecond: 2, firstWord: 6)
        #expect(engine.state == .paused, "a tap's pause stays until the operator plays")
    }

    @Test func lostConfidenceHandsBackToTheFixedSpeed() {
        var engine = playing()
        var driver = FollowDriver(wordOffsets: offsets, lineHeight: 60, fixedSpeed: 90)
        run(&engine, &driver, from: 0, until: 3, wordsPerSecond: 2)
        #expect(engine.speed != 90)
        var t = 3.0
        while t < 8.5 {
            driver.heard(word: 2, confidence: 0.1, heardAt: t)
            driver.drive(&engine, at: t)
            t += 0.1
        }
        #expect(driver.mode == .lost)
        #expect(engine.speed == 90)
        #expect(engine.state == .playing)
    }
}
