import Testing
@testable import Media

/// The pieces of a replay's streamed sound: the mixer's open stream (samples keep their
/// frames when they come late, it ends only once finished, it drops what has played)
/// and the feed between decoder and output (what is kept from the position, what a
/// play, a piece and the end tell the output).
@Suite struct ReplaySoundStreamingTests {
    @Test func anOpenStreamSlipsThroughADryPatchAndEndsOnlyWhenFinished() {
        var mixer = SoundMixer(channels: 1)
        var out: [Int16] = []
        #expect(mixer.add(id: 1, samples: [], open: true) == 0, "a stream may start empty")
        #expect(mixer.render(frames: 4, into: &out) == [.started(id: 1, frame: 0)])
        #expect(out == [0, 0, 0, 0] && !mixer.isIdle, "dry: silence, still running")
        // Samples 0-7 come after frames 0-3 went by silent: they play from frame 4 on,
        // and the stream says it slipped 4 frames (whoever follows it waits as long).
        let slipped = mixer.append(id: 1, samples: [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(slipped == 4)
        #expect(mixer.render(frames: 4, into: &out) == [])
        #expect(out == [1, 2, 3, 4], "no sample is skipped")
        let onTime = mixer.append(id: 1, samples: [9])
        #expect(onTime == 0, "in time: no slip")
        let finished = mixer.finish(id: 1)
        #expect(finished)
        #expect(mixer.render(frames: 8, into: &out) == [.ended(id: 1, frame: 12)])
        #expect(out == [5, 6, 7, 8, 9, 0, 0, 0])
        let late = mixer.append(id: 1, samples: [9])
        #expect(mixer.isIdle && late == nil)
    }

    @Test func aLongStreamDropsWhatHasPlayed() {
        var mixer = SoundMixer(channels: 1)
        mixer.add(id: 2, samples: [Int16](repeating: 3, count: 96_000), open: true)
        var out: [Int16] = []
        for _ in 0..<150 { _ = mixer.render(frames: 480, into: &out) }
        mixer.append(id: 2, samples: [Int16](repeating: 4, count: 480))
        _ = mixer.render(frames: 480, into: &out)
        #expect(out.allSatisfy { $0 == 3 })
        for _ in 0..<50 { _ = mixer.render(frames: 480, into: &out) }
        #expect(out.allSatisfy { $0 == 4 }, "frame 96 000 on is the appended piece")
    }

    private func piece(_ start: Double, _ count: Int, value: Int16) -> ReplaySound {
        ReplaySound(sampleRate: 100, startTime: start, samples: [Int16](repeating: value, count: count))
    }

    @Test func theFeedStartsAtThePositionAndStreamsTheRest() {
        var feed = ReplaySoundFeed()
        #expect(feed.play(from: 0).isEmpty, "no sound yet: the stream starts with the first piece")
        // The sound starts 0.02 s into the clip (after the encoder's priming): silence first.
        #expect(feed.received(piece(0.02, 10, value: 1)) == [.start(position: 0, samples: [0, 0] + [Int16](repeating: 1, count: 10),
                                                                     sampleRate: 100)])
        #expect(feed.received(piece(0.12, 5, value: 2)) == [.append([2, 2, 2, 2, 2])])
        // A gap of two samples is filled; an overlap is dropped.
        #expect(feed.received(piece(0.19, 2, value: 3)) == [.append([0, 0, 3, 3])])
        #expect(feed.received(piece(0.20, 3, value: 4)) == [.append([4, 4])])
        feed.pause()
        #expect(feed.received(piece(0.23, 2, value: 5)) == [], "paused: kept, not played")
        feed.trim(before: 0.2)
        #expect(abs(feed.bufferStart - 0.1) < 1e-9, "kept from 0.1 s behind the position")
        #expect(feed.play(from: 0.21) == [.start(position: 0.21, samples: [4, 4, 5, 5], sampleRate: 100)])
        #expect(feed.soundEnded() == [.finish])
        feed.pause()
        #expect(feed.play(from: 0.24) == [.start(position: 0.24, samples: [5], sampleRate: 100), .finish])
    }
}
