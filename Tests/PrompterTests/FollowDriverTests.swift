import Prompter
import XCTest

final class FollowDriverTests: XCTestCase {
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

    func testTracksThePaceOfSpeech() {
        var engine = playing()
        var driver = FollowDriver(wordOffsets: offsets, lineHeight: 60, fixedSpeed: 60)
        // 2 words a second = 40 px/s, slower than the fixed 60.
        run(&engine, &driver, from: 0, until: 10, wordsPerSecond: 2)
        XCTAssertEqual(driver.mode, .tracking)
        XCTAssertEqual(engine.offset(at: 10), offsets[20], accuracy: 30, "reading line on the spoken word")
        XCTAssertEqual(Double(engine.speed), 40, accuracy: 8)
    }

    func testHoldsWhenTheTalentPausesAndResumesAfter() {
        var engine = playing()
        var driver = FollowDriver(wordOffsets: offsets, lineHeight: 60, fixedSpeed: 60)
        run(&engine, &driver, from: 0, until: 5, wordsPerSecond: 2)
        for step in 0..<30 { driver.drive(&engine, at: 5 + Double(step) / 10) }
        XCTAssertEqual(driver.mode, .holding)
        XCTAssertEqual(engine.state, .paused)
        let held = engine.offset(at: 8)
        XCTAssertEqual(engine.offset(at: 7), held, accuracy: 0.001, "still during the pause")
        run(&engine, &driver, from: 8, until: 9, wordsPerSecond: 2, firstWord: 11)
        XCTAssertEqual(engine.state, .playing)
        XCTAssertEqual(driver.mode, .tracking)
    }

    func testOperatorPauseIsLeftAlone() {
        var engine = playing()
        var driver = FollowDriver(wordOffsets: offsets, lineHeight: 60, fixedSpeed: 60)
        run(&engine, &driver, from: 0, until: 3, wordsPerSecond: 2)
        engine.pause(at: 3)
        run(&engine, &driver, from: 3, until: 6, wordsPerSecond: 2, firstWord: 6)
        XCTAssertEqual(engine.state, .paused, "a tap's pause stays until the operator plays")
    }

    func testLostConfidenceHandsBackToTheFixedSpeed() {
        var engine = playing()
        var driver = FollowDriver(wordOffsets: offsets, lineHeight: 60, fixedSpeed: 90)
        run(&engine, &driver, from: 0, until: 3, wordsPerSecond: 2)
        XCTAssertNotEqual(engine.speed, 90)
        var t = 3.0
        while t < 8.5 {
            driver.heard(word: 2, confidence: 0.1, heardAt: t)
            driver.drive(&engine, at: t)
            t += 0.1
        }
        XCTAssertEqual(driver.mode, .lost)
        XCTAssertEqual(engine.speed, 90)
        XCTAssertEqual(engine.state, .playing)
    }
}
