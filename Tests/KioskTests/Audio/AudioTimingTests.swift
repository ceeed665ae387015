import Testing
@testable import Kiosk

@Suite struct AudioTimingTests {
    /// 4800 frames written, 1200 still queued at t = 10 s: frame 3600 is at the DAC
    /// then, frame 4800 25 ms later, frame 0 75 ms earlier.
    @Test func playbackFramesMeetTheDACAtTheirPlace() {
        let t = { AudioTiming.playbackTime(frame: $0, written: 4800, delay: 1200, timestamp: 10, rate: 48000) }
        #expect(t(3600) == 10)
        #expect(abs(t(4800) - 10.025) < 1e-9)
        #expect(abs(t(0) - 9.925) < 1e-9)
    }

    /// 960 frames read, 480 more waiting in the buffer at t = 5 s: the newest frame at
    /// the ADC is 1440, so frame 960 was captured 10 ms before.
    @Test func captureFramesWereAtTheADCBefore() {
        let t = { AudioTiming.captureTime(frame: $0, read: 960, delay: 480, timestamp: 5, rate: 48000) }
        #expect(t(1440) == 5)
        #expect(abs(t(960) - 4.99) < 1e-9)
        #expect(abs(t(0) - 4.97) < 1e-9)
    }
}
