import Testing
@testable import Prompter

/// A transport's motion extrapolated, as a follower rig extrapolates its lead's: ramps,
/// a countdown's delay, and a moment before the anchor (clocks a millisecond apart) read
/// as the anchor's own.
@Suite struct TransportMotionTests {
    @Test func aRampIsExtrapolatedExactly() {
        let motion = TransportMotion(rate: 1, targetRate: 3, rampSeconds: 0.2)
        // 1·0.2 + (2/0.2)·0.2²/2 = 0.4 lines in the ramp, then 3 a second.
        #expect(abs(motion.distance(after: 0.2) - 0.4) < 1e-12)
        #expect(abs(motion.distance(after: 1.2) - 3.4) < 1e-12)
        #expect(abs(motion.rate(after: 0.1) - 2) < 1e-12)
        #expect(abs(motion.rampLeft(after: 0.05) - 0.15) < 1e-12)
        #expect(motion.scaled(by: 50).distance(after: 1.2) == motion.distance(after: 1.2) * 50)
    }

    @Test func aCountdownHoldsTheTextUntilItEnds() {
        let motion = TransportMotion(rate: 0, targetRate: 2, rampSeconds: 0.3, delay: 1.5)
        #expect(motion.distance(after: 1.4) == 0)
        #expect(motion.rampLeft(after: 1.4) == 0.3)
        #expect(abs(motion.startsIn(after: 1.4) - 0.1) < 1e-12)
        #expect(motion.startsIn(after: 1.6) == 0)
        #expect(motion.distance(after: 2) > 0)
    }

    @Test func aMomentBeforeTheAnchorMovesAsTheAnchor() {
        let motion = TransportMotion(rate: 2, targetRate: 2, rampSeconds: 0)
        #expect(motion.startsIn(after: -0.0004) == 0)
        #expect(motion.rate(after: -0.0004) == 2)
        #expect(motion.distance(after: -0.0004) == 0)
    }
}
