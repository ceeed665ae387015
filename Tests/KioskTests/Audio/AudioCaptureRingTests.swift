import Testing
@testable import Kiosk

@Suite struct AudioCaptureRingTests {
    private func period(_ index: Int, frames: Int = 100) -> CapturedPeriod {
        CapturedPeriod(firstFrame: Int64(index * frames), time: Double(index) * 0.01, sampleRate: 10_000,
                       samples: [Int16](repeating: Int16(index), count: frames))
    }

    @Test func keepsTheNewestWithinItsCapacity() {
        let ring = AudioCaptureRing(capacityFrames: 350)
        for i in 0..<10 { ring.append(period(i)) }
        #expect(ring.bufferedFrames == 300)
        let all = ring.read(from: 0)
        #expect(all.periods.map(\.firstFrame) == [700, 800, 900])
        #expect(all.missedFrames == 700)
        let recent = ring.read(from: 800)
        #expect(recent.periods.map(\.firstFrame) == [800, 900])
        #expect(recent.missedFrames == 0)
        #expect(ring.latest?.firstFrame == 900)
        #expect(abs((ring.latest?.endTime ?? 0) - 0.1) < 1e-9)
    }

    @Test func staysBoundedOverALongRun() {
        let ring = AudioCaptureRing(capacityFrames: 1000)
        for i in 0..<5000 { ring.append(period(i, frames: 10)) }
        #expect(ring.bufferedFrames == 1000)
        #expect(ring.read(from: 0).periods.count == 100)
        #expect(ring.read(from: 0).periods.first?.firstFrame == 49_000)
    }
}
