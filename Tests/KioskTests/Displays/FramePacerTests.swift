import Testing
@testable import Kiosk
@testable import Stage

@Suite struct FramePacerTests {
    let period = 1.0 / 75

    @Test func composesARepaintWindowBeforeTheVblankAfterTheLastFlip() {
        var pacer = FramePacer(period: period)
        pacer.modeset(period: period, at: 10)
        pacer.flipCompleted(time: 10.5, sequence: 1)
        let (composeAt, target) = pacer.schedule(now: 10.501)
        #expect(abs(target - (10.5 + period)) < 1e-9)
        #expect(abs(composeAt - (target - pacer.repaintWindow)) < 1e-9)
    }

    @Test func aLateRequestAimsAtTheNextVblankOnTheGrid() {
        var pacer = FramePacer(period: period)
        pacer.modeset(period: period, at: 0)
        pacer.flipCompleted(time: 1, sequence: 1)
        let (composeAt, target) = pacer.schedule(now: 3.0001)
        let periods = (target - 1) / period
        #expect(abs(periods - periods.rounded()) < 1e-6)
        #expect(target - 3.0001 >= pacer.repaintWindow - 1e-9)
        #expect(target - 3.0001 < pacer.repaintWindow + period)
        #expect(composeAt >= 3.0001)
    }

    @Test func aComposeRunAfterItsVblankAimsAtTheNextAndCountsTheOnesMissed() {
        var pacer = FramePacer(period: period)
        pacer.modeset(period: period, at: 0)
        pacer.flipCompleted(time: 1, sequence: 1)
        let (composeAt, target) = pacer.schedule(now: 1.001)
        // On time: the same vblank, nothing missed.
        #expect(pacer.reachable(target, now: composeAt) == target)
        #expect(pacer.missedVblanks == 0)
        // Run 0.1 s late: a vblank on the grid after now, the ones between missed.
        let late = target + 0.1
        let next = pacer.reachable(target, now: late)
        #expect(next - late >= pacer.repaintWindow - 1e-9)
        #expect(next - late < pacer.repaintWindow + period)
        #expect(abs((next - 1) / period - ((next - 1) / period).rounded()) < 1e-6)
        #expect(pacer.missedVblanks == UInt64(((next - target) / period).rounded()))
        #expect(pacer.missedVblanks >= 7)
    }

    /// virtio-gpu completes a flip ~2 ms after it is queued. Flipping again at once
    /// would run at hundreds of frames a second; the pacer keeps the mode's rate.
    @Test func flipsThatCompleteEarlyStillRunAtTheModesRate() {
        var pacer = FramePacer(period: period)
        pacer.modeset(period: period, at: 0)
        var now = 0.0
        var flipTimes: [Double] = []
        for _ in 0..<150 {
            let (composeAt, target) = pacer.schedule(now: now)
            now = composeAt + 0.001          // composing takes 1 ms
            pacer.submitted(target: target)
            now += 0.002                     // the driver completes at once
            pacer.flipCompleted(time: now, sequence: 0)
            flipTimes.append(now)
        }
        let rate = Double(flipTimes.count - 1) / (flipTimes[flipTimes.count - 1] - flipTimes[0])
        #expect(abs(rate - 75) < 1, "rate \(rate)")
        #expect(pacer.missedVblanks == 0)
    }

    @Test func aFlipShownAPeriodLateCountsAsAMissedVblank() {
        var pacer = FramePacer(period: period)
        pacer.modeset(period: period, at: 0)
        let (_, target) = pacer.schedule(now: 0)
        pacer.submitted(target: target)
        pacer.flipCompleted(time: target + 2 * period, sequence: 3)
        #expect(pacer.missedVblanks == 2)
        #expect(pacer.flips == 1)
    }

    @Test func sequenceIsWidenedAcrossThe32BitWrap() {
        var pacer = FramePacer(period: period)
        pacer.flipCompleted(time: 1, sequence: UInt32.max - 1)
        let stamp = pacer.flipCompleted(time: 2, sequence: 2)
        #expect(stamp.sequence == UInt64(UInt32.max) + 3)
    }
}
