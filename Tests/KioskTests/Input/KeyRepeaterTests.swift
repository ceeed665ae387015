import Testing
@testable import Kiosk
@testable import Stage

/// The kiosk's own key repeat (libinput's keyboards and the desktop windows), on a
/// loop whose clock the test moves.
@Suite struct KeyRepeaterTests {
    final class Clock: @unchecked Sendable { var now = 100.0 }

    @Test func theLastPressedKeyRepeatsAfterTheDelayThenEveryIntervalWithOneCatchUpAfterAStall() throws {
        let clock = Clock()
        let loop = try EventLoop(clock: { clock.now })
        var delivered: [KeyPress] = []
        let repeater = KeyRepeater(loop: loop) { delivered.append($0) }
        func at(_ time: Double) {
            clock.now = time
            loop.runOnce(timeout: 0)
        }
        repeater.start(KeyPress(code: 30, text: "a", modifiers: .shift, time: 100), delay: 0.4, interval: 0.1)
        at(100.39)
        #expect(delivered.isEmpty)
        at(100.4)
        #expect(delivered.map(\.time) == [100.4])
        #expect(delivered.allSatisfy { $0.isRepeat && $0.text == "a" && $0.modifiers == .shift && $0.code == 30 })
        at(100.51)
        #expect(delivered.count == 2)
        // The loop stalled for 2 s: the repeat that was due and one catch-up now, then
        // an interval on, not the twenty a stall's worth of repeats would be.
        at(102.5)
        at(102.5)
        #expect(delivered.count == 4)
        at(102.55)
        #expect(delivered.count == 4)
        at(102.61)
        #expect(delivered.count == 5)
        // Another key going up leaves the repeat alone; its own key ends it.
        repeater.released(code: 31)
        at(102.72)
        #expect(delivered.count == 6)
        repeater.released(code: 30)
        at(103.5)
        #expect(delivered.count == 6)
    }

    @Test func aReleaseQueuedWhileTheLoopStalledEndsTheRepeatBeforeItFires() throws {
        let clock = Clock()
        let loop = try EventLoop(clock: { clock.now })
        var delivered: [KeyPress] = []
        let repeater = KeyRepeater(loop: loop) { delivered.append($0) }
        // Enter tapped for 40 ms, its press handled by opening a screen that held the
        // loop for 0.6 s: the release waits in the queue when the repeat falls due.
        var queued: [UInt32] = [28]
        repeater.readPending = { [unowned repeater] in
            for code in queued { repeater.released(code: code) }
            queued = []
        }
        repeater.start(KeyPress(code: 28, time: 100), delay: 0.4, interval: 0.1)
        clock.now = 100.6
        loop.runOnce(timeout: 0)
        clock.now = 101
        loop.runOnce(timeout: 0)
        #expect(delivered.isEmpty)
        // Held for real (nothing queued): it repeats.
        repeater.start(KeyPress(code: 28, time: 101), delay: 0.4, interval: 0.1)
        clock.now = 101.5
        loop.runOnce(timeout: 0)
        #expect(delivered.count == 1)
    }

    @Test func aNewPressReplacesTheRepeatingKey() throws {
        let clock = Clock()
        let loop = try EventLoop(clock: { clock.now })
        var codes: [UInt32] = []
        let repeater = KeyRepeater(loop: loop) { codes.append($0.code) }
        repeater.start(KeyPress(code: 30, time: 100), delay: 0.4, interval: 0.1)
        clock.now = 100.2
        repeater.start(KeyPress(code: 48, time: 100.2), delay: 0.4, interval: 0.1)
        for time in [100.4, 100.61, 100.72] {
            clock.now = time
            loop.runOnce(timeout: 0)
        }
        #expect(codes == [48, 48])
    }

    @Test func aReleaseReadJustBeforeADueRepeatStopsIt() throws {
        // The loop stalled past the deadline with the release still queued: reading it
        // first (InputDevices drains libinput) means no repeat of a tap.
        let clock = Clock()
        let loop = try EventLoop(clock: { clock.now })
        var delivered = 0
        let repeater = KeyRepeater(loop: loop) { _ in delivered += 1 }
        repeater.readPending = { [unowned repeater] in repeater.released(code: 28) }
        repeater.start(KeyPress(code: 28, time: 100), delay: 0.4, interval: 0.1)
        clock.now = 101
        loop.runOnce(timeout: 0)
        #expect(delivered == 0)
    }
}
