import Testing
@testable import Media

@Suite struct SoundMixerTests {
    @Test func reportsTheFramesOfFirstAndLastSample() {
        var mixer = SoundMixer(channels: 2)
        var out: [Int16] = []
        _ = mixer.render(frames: 100, into: &out)
        #expect(mixer.add(id: 7, samples: [Int16](repeating: 1000, count: 250)) == 100)
        #expect(mixer.render(frames: 100, into: &out) == [.started(id: 7, frame: 100)])
        #expect(out.count == 200)
        #expect(out.allSatisfy { $0 == 1000 })
        #expect(mixer.render(frames: 100, into: &out) == [])
        #expect(mixer.render(frames: 100, into: &out) == [.ended(id: 7, frame: 349)])
        #expect(out[0..<100].allSatisfy { $0 == 1000 })
        #expect(out[100...].allSatisfy { $0 == 0 })
        #expect(mixer.isIdle)
    }

    @Test func mixesSaturatingWithVolume() {
        var mixer = SoundMixer(channels: 1, volume: 0.5)
        mixer.add(id: 1, samples: [30000, 30000, -30000])
        mixer.add(id: 2, samples: [30000, 100, -30000], gain: 1)
        var out: [Int16] = []
        let events = mixer.render(frames: 4, into: &out)
        #expect(out == [30000, 15050, -30000, 0])
        #expect(events.contains(.ended(id: 1, frame: 2)) && events.contains(.ended(id: 2, frame: 2)))

        var loud = SoundMixer(channels: 1)
        loud.add(id: 1, samples: [30000]); loud.add(id: 2, samples: [30000])
        _ = loud.render(frames: 1, into: &out)
        #expect(out == [32767])
    }

    @Test func cancellingRemovesAClip() {
        var mixer = SoundMixer(channels: 1)
        mixer.add(id: 3, samples: [Int16](repeating: 5, count: 10))
        var out: [Int16] = []
        _ = mixer.render(frames: 4, into: &out)
        #expect(mixer.cancel(id: 3) == [.cancelled(id: 3)])
        #expect(mixer.render(frames: 4, into: &out) == [])
        #expect(out == [0, 0, 0, 0])
    }
}
