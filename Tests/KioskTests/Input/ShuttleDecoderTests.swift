import CEvdev
import Testing
@testable import Kiosk

/// A ShuttleXpress's frames as hid-generic sends them: the ring's position on REL_WHEEL,
/// the jog's 8-bit counter on REL_DIAL, and zeros never sent.
@Suite struct ShuttleDecoderTests {
    private func frame(_ decoder: inout ShuttleDecoder, _ events: [(Int32, Int32, Int32)]) -> ShuttleDecoder.Change {
        for (type, code, value) in events { decoder.event(type: UInt16(type), code: UInt16(code), value: value) }
        return decoder.sync()
    }

    @Test func theRingsPositionAndItsReturnToTheCentre() {
        var decoder = ShuttleDecoder()
        #expect(frame(&decoder, [(EV_REL, REL_WHEEL, 3), (EV_REL, REL_DIAL, 17)]) == .init(ring: 3, detents: 0))
        #expect(frame(&decoder, [(EV_REL, REL_WHEEL, 5), (EV_REL, REL_DIAL, 17)]) == .init(ring: 5, detents: 0))
        // Back at the centre: the kernel drops REL_WHEEL 0; the unchanged counter comes alone.
        #expect(frame(&decoder, [(EV_REL, REL_DIAL, 17)]) == .init(ring: 0, detents: 0))
        #expect(decoder.ring == 0)
        // A button press while the ring is held carries the ring too: no change.
        _ = frame(&decoder, [(EV_REL, REL_WHEEL, -2), (EV_REL, REL_DIAL, 17)])
        #expect(frame(&decoder, [(EV_KEY, BTN_4, 1), (EV_REL, REL_WHEEL, -2), (EV_REL, REL_DIAL, 17)])
                == .init(ring: nil, detents: 0))
    }

    @Test func theJogCountsDetentsAcrossTheCountersWrapAndItsSilentZero() {
        var decoder = ShuttleDecoder()
        _ = frame(&decoder, [(EV_REL, REL_DIAL, 254)])
        #expect(frame(&decoder, [(EV_REL, REL_DIAL, 255)]).detents == 1)
        // 0 is never sent: 255 → 0 → 1 arrives as 1, two detents.
        #expect(frame(&decoder, [(EV_REL, REL_DIAL, 1)]).detents == 2)
        #expect(frame(&decoder, [(EV_REL, REL_DIAL, 254)]).detents == -3)
        // After dropped events the next counter is a new baseline, not a leap.
        decoder.resynchronise()
        #expect(frame(&decoder, [(EV_REL, REL_DIAL, 100)]).detents == 0)
    }

    @Test func anEmptyFrameChangesNothing() {
        var decoder = ShuttleDecoder()
        _ = frame(&decoder, [(EV_REL, REL_WHEEL, 4), (EV_REL, REL_DIAL, 9)])
        #expect(frame(&decoder, []) == .init(ring: nil, detents: 0))
        #expect(decoder.ring == 4)
    }
}
