import CEvdev

/// A Contour shuttle's evdev frames as the kernel's hid-generic driver sends them: the
/// spring-loaded ring as REL_WHEEL with its position (-7…7, not a motion) and the jog
/// wheel as REL_DIAL with an 8-bit counter (as Eric Messick's ShuttlePRO driver and Dan
/// Dennedy's mediactrl.c read them).
///
/// The device reports its whole state on every change, but the input core drops relative
/// events whose value is 0. So the ring's return to the centre shows only as a frame
/// without REL_WHEEL, and the counter passing 0 is silent (the next value's difference
/// still counts the step, by wrapping arithmetic).
struct ShuttleDecoder {
    /// The ring's position, -7…7.
    private(set) var ring = 0
    private var counter: Int?
    private var frameRing: Int?
    private var frameCounter: Int?
    private var frameHasReport = false

    /// What one frame changed: the ring's new position (nil: the same) and jog detents.
    struct Change: Equatable {
        var ring: Int?
        var detents: Int
    }

    mutating func event(type: UInt16, code: UInt16, value: Int32) {
        switch (Int32(type), Int32(code)) {
        case (EV_REL, REL_WHEEL):
            frameRing = Int(value)
            frameHasReport = true
        case (EV_REL, REL_DIAL):
            frameCounter = Int(value) & 0xff
            frameHasReport = true
        case (EV_KEY, _), (EV_REL, _):
            frameHasReport = true
        default:
            break
        }
    }

    /// SYN_REPORT: the frame's changes.
    mutating func sync() -> Change {
        defer { (frameRing, frameCounter, frameHasReport) = (nil, nil, false) }
        var change = Change(ring: nil, detents: 0)
        guard frameHasReport else { return change }
        let position = min(max(frameRing ?? 0, -7), 7)
        if position != ring {
            ring = position
            change.ring = position
        }
        if let value = frameCounter {
            if let last = counter {
                // -128…127: the wheel never turns half a revolution of the counter in one report.
                change.detents = Int(Int8(truncatingIfNeeded: value - last))
            }
            counter = value
        }
        return change
    }

    /// After the kernel dropped events (SYN_DROPPED): the next frame sets a new baseline.
    mutating func resynchronise() {
        counter = nil
        (frameRing, frameCounter, frameHasReport) = (nil, nil, false)
    }
}
