import Foundation
import Testing
@testable import Prompter

/// A follower's engine steered by `LeadPursuit` from a lead engine's anchors, as the
/// stage does it: the anchor ten times a second and at every change, over a network with
/// jitter and loss, steered when one arrives and twenty times a second between. The
/// follower's lines are 1.6 times the lead's (another font size), so a place in lines
/// maps between them as a `ReadingAnchor` maps a word.
@Suite struct LeadPursuitTests {
    static let leadLine = 50.0
    static let followerLine = 80.0
    static let refresh = 60.0

    /// What the lead publishes: lines from the top (at a glide's end), lines a second, its time.
    struct Anchor { var lines: Double; var motion: TransportMotion; var time: Double }

    struct Run {
        /// Every frame's error (follower minus the lead's place there), with the lead's rate
        /// here and whether the lead had changed in the second before.
        var errors: [(t: Double, error: Double, rate: Double, settled: Bool)] = []
        var largestStep = 0.0
        /// The countdown's digit each frame on the lead and on the follower.
        var digits: [(t: Double, lead: Int?, follower: Int?)] = []
    }

    /// Plays `events` on the lead (each at its time) for `duration` s; the anchors of
    /// [from, to) of `outage` never arrive, and the follower eases out a second after the
    /// last one, as the stage's "lost" does, and catches up when they come back.
    static func run(duration: Double, events: [(Double, (inout PrompterEngine, Double) -> Void)],
                    latency: Double = 0.002, jitter: Double = 0.020, loss: Double = 0.02, outage: Range<Double>? = nil,
                    refresh: Double = Self.refresh, countdown: Int = 3) -> Run {
        var lead = PrompterEngine(speed: 60)
        lead.countdownSeconds = countdown
        lead.open(at: 0, maxOffset: 100_000)
        var follower = PrompterEngine(speed: 60)
        follower.open(at: 0, maxOffset: 100_000 * followerLine / leadLine)
        var pursuit = LeadPursuit()
        var random = NetworkDice(seed: 41)
        var inFlight: [(arrives: Double, anchor: Anchor)] = []
        var last: Anchor?
        var lastArrival = 0.0
        var lost = false
        var run = Run()
        var nextPublish = 0.0, nextTick = 0.0
        var pending = events.sorted { $0.0 < $1.0 }
        var lastChange = -10.0
        var previousOffset = 0.0
        let frame = 1 / refresh
        var t = 0.0
        func publish(_ t: Double) {
            guard random.next() >= loss, !(outage?.contains(t) ?? false) else { return }
            let anchor = Anchor(lines: lead.positionIgnoringGlide(at: t) / leadLine,
                                motion: lead.motion(at: t).scaled(by: 1 / leadLine), time: t)
            inFlight.append((t + latency + random.next() * jitter, anchor))
        }
        func steer(_ t: Double) {
            guard let anchor = last, !lost else { return }
            let elapsed = t - anchor.time
            let target = (anchor.lines + anchor.motion.distance(after: elapsed)) * followerLine
            pursuit.steer(&follower, target: target, leadTargetRate: anchor.motion.targetRate * followerLine,
                          leadRampLeft: anchor.motion.rampLeft(after: elapsed),
                          leadStartsIn: anchor.motion.startsIn(after: elapsed), lineHeight: followerLine, at: t)
        }
        while t < duration {
            // Everything due before this frame, in time order.
            while let event = pending.first, event.0 <= t {
                pending.removeFirst()
                event.1(&lead, event.0)
                lastChange = event.0
                publish(event.0)
            }
            while nextPublish <= t { publish(nextPublish); nextPublish += 0.1 }
            // Arrivals and the stage's ticks up to this frame, in time order (the loop's
            // clock never goes back).
            inFlight.sort { $0.arrives < $1.arrives }
            while true {
                let arrival = inFlight.first.map(\.arrives) ?? .infinity
                guard min(arrival, nextTick) <= t else { break }
                if nextTick < arrival {
                    steer(nextTick)
                    nextTick += 0.05
                    continue
                }
                let first = inFlight.removeFirst()
                if last == nil || first.anchor.time > last!.time { last = first.anchor }
                lastArrival = first.arrives
                if lost { lost = false; pursuit.catchingUp = true }
                steer(first.arrives)
            }
            if !lost, last != nil, t - lastArrival > 1 {
                lost = true
                follower.drive(rate: 0, at: t)
            }
            let here = follower.offset(at: t)
            let there = lead.offset(at: t) / leadLine * followerLine
            run.largestStep = max(run.largestStep, abs(here - previousOffset))
            run.digits.append((t, lead.countdownShown(at: t), follower.countdownShown(at: t)))
            previousOffset = here
            // The first play starts after its countdown: settled a second after that.
            let settled = t - lastChange > 1 && !lead.isGliding(at: t) && !lost && t > 1.5 + Double(countdown)
                && !(outage.map { t >= $0.lowerBound - 1 && t < $0.upperBound + 1 } ?? false)
            run.errors.append((t, here - there, lead.currentRate(at: t) / leadLine * followerLine, settled))
            t += frame
        }
        return run
    }

    static var show: [(Double, (inout PrompterEngine, Double) -> Void)] { [
        (0.5, { $0.play(at: $1) }),
        (5, { $0.setSpeed(120, at: $1) }),
        (9, { $0.pause(at: $1) }),
        (11, { $0.resume(at: $1) }),
        (14, { $0.jump(to: $0.offset(at: $1) + 2000, at: $1) }),
        (18, { $0.setSpeed(35, at: $1) }),
        (22, { $0.setSpeed(200, at: $1) }),
    ] }

    @Test func followsWithinAFrameOfMotionWithJitterAndLoss() {
        let run = Self.run(duration: 26, events: Self.show)
        let settled = run.errors.filter(\.settled)
        #expect(settled.count > 600)
        var worstShare = 0.0
        for sample in settled {
            let frameOfMotion = max(sample.rate / Self.refresh, 0.5)
            worstShare = max(worstShare, abs(sample.error) / frameOfMotion)
        }
        let all = run.errors.map { abs($0.error) }.sorted()
        print("lead pursuit: settled frames \(settled.count), largest error \(String(format: "%.2f", worstShare)) frames of motion; "
              + "all frames: median \(String(format: "%.2f", all[all.count / 2])) px, "
              + "p95 \(String(format: "%.2f", all[all.count * 95 / 100])) px, max \(String(format: "%.1f", all.last!)) px")
        #expect(worstShare <= 1, "a settled follower strays more than one frame of motion from the lead")
    }

    /// A speed change reaches the follower a network's delay after the lead's ramp began;
    /// its ramp ends with the lead's, so it falls behind by about half the change's worth
    /// of that delay (the area between two ramps ending together), not all of it, and then
    /// closes the gap.
    @Test func aSpeedChangeHeardOfLateLagsByHalfItsDelay() {
        let latency = 0.08
        let run = Self.run(duration: 9, events: [(0.5, { $0.play(at: $1) }), (5, { $0.setSpeed(200, at: $1) })],
                           latency: latency, jitter: 0, loss: 0)
        let change = (200.0 - 60) / Self.leadLine * Self.followerLine
        let lag = run.errors.filter { (5...6).contains($0.t) }.map { abs($0.error) }.max() ?? .infinity
        let after = run.errors.filter { $0.t >= 6.5 }.map { abs($0.error) }.max() ?? .infinity
        print("lead pursuit: a speed change heard of \(Int(latency * 1000)) ms late: behind by "
              + "\(String(format: "%.1f", lag)) px at most (the change's worth of the delay is "
              + "\(String(format: "%.1f", change * latency)) px), \(String(format: "%.2f", after)) px 1.5 s on")
        #expect(lag <= change * latency * 0.6)
        #expect(after <= 200 / Self.leadLine * Self.followerLine / Self.refresh)
    }

    /// The lead's 3-2-1 before its run: the follower shows the same digit at the same
    /// moments (after the first anchor reached it) and starts moving when the lead does.
    @Test func theLeadsCountdownIsCountedHereToo() {
        let run = Self.run(duration: 6, events: [(0.5, { $0.play(at: $1) })], countdown: 3)
        let counting = run.digits.filter { $0.t > 0.6 && $0.lead != nil }
        let differing = counting.filter { $0.lead != $0.follower }
        // Digits change on the same instant on both wall clocks; a frame's rounding apart at most.
        #expect(counting.count > 150)
        #expect(differing.count <= 3, "frames with another digit here: \(differing.map { ($0.t, $0.lead, $0.follower) })")
        #expect(run.digits.filter { $0.t > 3.6 }.allSatisfy { $0.follower == nil })
        let late = run.errors.filter { $0.t > 4.6 }.map { abs($0.error) }.max() ?? .infinity
        #expect(late <= 60 / Self.leadLine * Self.followerLine / Self.refresh, "\(late) px from the lead once it moves")
    }

    @Test func catchesUpAfterAFiveSecondOutageWithinASecondAndNoStepOverALine() {
        for refresh in [60.0, 50.0] {
            let run = Self.run(duration: 14, events: [(0.5, { $0.play(at: $1) }), (2, { $0.setSpeed(150, at: $1) })],
                               jitter: 0, loss: 0, outage: 4..<9, refresh: refresh)
            // The first anchor after the outage arrives at 9.002; within a second the
            // follower is within a frame of motion of the lead and stays there.
            let after = run.errors.filter { $0.t >= 10.002 }
            let frameOfMotion = 150 / Self.leadLine * Self.followerLine / refresh
            let worst = after.map { abs($0.error) }.max() ?? .infinity
            let behindAtReturn = run.errors.first { $0.t >= 9.002 }.map { -$0.error } ?? 0
            print("lead pursuit at \(Int(refresh)) Hz: \(String(format: "%.0f", behindAtReturn)) px behind when the lead came back, "
                  + "\(String(format: "%.2f", worst)) px a second later, largest frame step \(String(format: "%.1f", run.largestStep)) px "
                  + "(a line is \(Int(Self.followerLine)) px)")
            #expect(behindAtReturn > 10 * Self.followerLine, "the outage should have left the follower lines behind")
            #expect(worst <= frameOfMotion)
            #expect(run.largestStep <= Self.followerLine)
        }
    }

    @Test func aLeadJumpIsTheSameGlideAndRestIsExact() {
        var engine = PrompterEngine()
        engine.open(at: 0, maxOffset: 10_000)
        var pursuit = LeadPursuit()
        let step = pursuit.steer(&engine, target: 1000, leadTargetRate: 0, lineHeight: 50, at: 1)
        #expect(step == .glide(distance: 1000, duration: PrompterEngine.glideDuration))
        #expect(engine.offset(at: 1 + PrompterEngine.glideDuration) == 1000)
        // At rest and there: nothing more to do.
        #expect(pursuit.steer(&engine, target: 1000.1, leadTargetRate: 0, lineHeight: 50, at: 2) == .none)
        // Moving: the lead's rate plus the gap's correction.
        #expect(pursuit.steer(&engine, target: 1010, leadTargetRate: 60, lineHeight: 50, at: 3) == .pursue(rate: 60 + LeadPursuit.gain * 10))
        #expect(engine.state == .playing)
    }
}

/// The same jitter and loss every run: a 64-bit linear congruential generator (Knuth's
/// MMIX constants), its top 53 bits as a fraction.
struct NetworkDice {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
}
