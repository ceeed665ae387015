import Testing
@testable import Prompter

/// A hand controller's position to a speed: the band, the curve, the steps, reverse.
@Suite struct SpeedMapTests {
    /// A ShuttleXpress ring: -7…7, spring-centred, a speed per detent.
    let ring = SpeedMap(reverseEnd: -7, forwardEnd: 7, rest: 0, neutral: 0.5 / 7, forwardMax: 300, reverseMax: 100,
                        steps: [15, 30, 50, 75, 110, 160, 240])

    @Test func eachRingDetentHasItsOwnSpeedAndTheCentreNone() {
        #expect((-7...7).map { ring.speed(at: Double($0)) } ==
                [-100, -100, -100, -75, -50, -30, -15, 0, 15, 30, 50, 75, 110, 160, 240])
        #expect(ring.speed(at: 0) == 0)
        #expect(ring.speed(at: 1) == 15)
        #expect(ring.speed(at: 7) == 240)
        #expect(ring.speed(at: -1) == -15)
        // Reverse is capped at its own maximum.
        #expect(ring.speed(at: -7) == -100)
    }

    /// A stick whose "up" reads negative: the ends given the other way round.
    let stick = SpeedMap(reverseEnd: 32767, forwardEnd: -32768, rest: 0, neutral: 0.15, forwardMax: 300, reverseMax: 150,
                         curve: 2)

    @Test func aStickInItsBandAsksForNothingAndGrowsAlongTheCurvePastIt() {
        #expect(stick.speed(at: 0) == 0)
        #expect(stick.speed(at: -4000) == 0)   // 12 % of the travel: in the band
        #expect(stick.speed(at: 4000) == 0)
        let half = stick.speed(at: -32768 * (0.15 + 0.85 / 2))
        #expect(abs(half - (10 + 290 * 0.25)) < 0.01)   // halfway past the band, squared
        #expect(stick.speed(at: -32768) == 300)
        #expect(stick.speed(at: 32767) == -150)
        #expect(stick.speed(at: -5500) > 10 && stick.speed(at: -5500) < 11)   // just past the band: the slowest speed
    }

    /// An expression pedal on MIDI CC: rests at the heel (0), forward only.
    let pedal = SpeedMap(reverseEnd: 0, forwardEnd: 127, rest: 0, neutral: 0.05, forwardMax: 200, reverseMax: 0)

    @Test func aPedalRestingAtTheHeelIsForwardOnly() {
        #expect(pedal.speed(at: 0) == 0)
        #expect(pedal.speed(at: 6) == 0)
        #expect(pedal.speed(at: 127) == 200)
        #expect(pedal.speed(at: 64) > 90 && pedal.speed(at: 64) < 110)
        #expect(pedal.travel(at: -3) == 0)
    }
}
