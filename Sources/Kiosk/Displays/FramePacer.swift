import Stage

/// Decides when one display composes its next frame and for which vblank, from the
/// kernel's timestamps of completed flips. Pure arithmetic, so it is unit-tested with
/// made-up timestamps.
///
/// Frames are composed a short repaint window before the vblank they aim for (as
/// weston does), never merely "when the last flip completed": virtio-gpu and other
/// drivers without a vblank interrupt complete flips at once, and a backend that
/// flipped on every event would spin the CPU. Aiming at the vblank grid anchored on the
/// last flip keeps such displays at the mode's refresh.
struct FramePacer: Sendable {
    private(set) var period: Double
    private(set) var lastPresentation: Double?
    private(set) var flips: UInt64 = 0
    private(set) var missedVblanks: UInt64 = 0
    private(set) var sequence: UInt64 = 0
    private var lastRawSequence: UInt32?
    private var pendingTarget: Double?

    init(period: Double) {
        self.period = period
    }

    /// How long before a vblank the frame for it is composed and submitted.
    var repaintWindow: Double { min(0.007, period * 0.5) }

    /// After a modeset: the new mode's period, and the modeset as the grid's anchor.
    mutating func modeset(period: Double, at now: Double) {
        self.period = period
        lastPresentation = now
        pendingTarget = nil
        lastRawSequence = nil
    }

    /// When to compose the next frame and the vblank it will be shown at.
    func schedule(now: Double) -> (composeAt: Double, target: Double) {
        guard let last = lastPresentation else { return (now, now + period) }
        let earliest = max(last + period, now + repaintWindow)
        // The epsilon keeps a target that lands exactly on the grid from skipping a period.
        let periods = ((earliest - last) / period - 1e-6).rounded(.up)
        let target = last + max(1, periods) * period
        return (max(now, target - repaintWindow), target)
    }

    /// The vblank a compose timed for `target` aims at when it runs at `now`: `target`,
    /// or, once that has passed (a starved loop ran the compose late), the next one it
    /// can make; the vblanks passed meanwhile showed the frame before and count as missed.
    mutating func reachable(_ target: Double, now: Double) -> Double {
        guard now >= target else { return target }
        let next = schedule(now: now).target
        missedVblanks += UInt64(max(0, ((next - target) / period).rounded()))
        return next
    }

    mutating func submitted(target: Double) {
        pendingTarget = target
    }

    /// A flip completed at the kernel's `time` with its 32-bit vblank `sequence`.
    @discardableResult
    mutating func flipCompleted(time: Double, sequence raw: UInt32) -> FlipStamp {
        if let previous = lastRawSequence {
            sequence &+= UInt64(raw &- previous)
        } else {
            sequence = UInt64(raw)
        }
        lastRawSequence = raw
        flips += 1
        // Shown later than aimed for by at least half a period: count whole vblanks missed.
        if let target = pendingTarget, time > target + period / 2 {
            missedVblanks += UInt64(((time - target) / period).rounded())
        }
        // A flip that completes well before its vblank was not synced to one (virtio-gpu):
        // keep the grid on the vblank it was meant for, or each early completion would
        // pull the next frame earlier and the rate would creep above the refresh.
        if let target = pendingTarget, time < target - period / 4 {
            lastPresentation = target
        } else {
            lastPresentation = time
        }
        pendingTarget = nil
        return FlipStamp(time: time, sequence: sequence)
    }
}

extension DisplayStatus {
    /// A frame reached the screen: the status's flip figures as the pacer counts them.
    mutating func recordFlip(_ stamp: FlipStamp, _ pacer: FramePacer) {
        lastFlip = stamp
        flips = pacer.flips
        missedVblanks = pacer.missedVblanks
    }
}
