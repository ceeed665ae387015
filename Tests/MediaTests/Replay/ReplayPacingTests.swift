import Testing
@testable import Media

/// The replay's pace on a manual clock: the position is a function of the time since
/// play, pauses bank it, the end clamps it, and each frame shows the newest picture
/// whose time has come, so a late frame skips pictures instead of slowing the clip.
struct ReplayPacingTests {
    /// Pictures every 1/30 s from 0, as a 30 fps recording has them.
    private func pictures(_ count: Int) -> [ReplayPicture] {
        (0..<count).map { ReplayPicture(time: Double($0) / 30, index: $0, width: 2, height: 2, bytesPerLine: 2,
                                        bytes: [0, 0, 0, 0, 0, 0]) }
    }

    @Test func positionFollowsTheClockAcrossPauseAndEnd() {
        var now = 100.0
        var clock = ReplayClock(duration: 2)
        #expect(clock.position(at: now) == 0 && !clock.isPlaying(at: now))
        clock.play(at: now)
        now += 0.75
        #expect(abs(clock.position(at: now) - 0.75) < 1e-9)
        clock.pause(at: now)
        now += 5
        #expect(abs(clock.position(at: now) - 0.75) < 1e-9, "a pause keeps the position")
        #expect(clock.time(ofPosition: 1) == nil)
        clock.play(at: now)
        #expect(abs((clock.time(ofPosition: 1) ?? 0) - (now + 0.25)) < 1e-9)
        now += 1.0
        #expect(abs(clock.position(at: now) - 1.75) < 1e-9)
        now += 3
        #expect(clock.position(at: now) == 2 && clock.hasEnded(at: now) && !clock.isPlaying(at: now))
        clock.play(at: now)
        #expect(clock.position(at: now) == 0, "play at the end starts from the top")
        now += 0.5
        #expect(abs(clock.position(at: now) - 0.5) < 1e-9)
    }

    @Test func eachVblankShowsThePictureDueAtItsTime() {
        var queue = ReplayPictureQueue()
        for picture in pictures(60) { queue.append(picture) }
        var clock = ReplayClock(duration: 2)
        let start = 10.0
        clock.play(at: start)
        var shown: [Int] = []
        // 60 Hz vblanks for one second.
        for frame in 0..<60 {
            shown.append(queue.picture(at: clock.position(at: start + Double(frame) / 60))?.index ?? -1)
        }
        // Each 30 fps picture is on the glass for two 60 Hz frames, none skipped.
        #expect(shown == (0..<60).map { $0 / 2 })
        #expect(queue.skipped == 0)
    }

    @Test func aLateFrameSkipsPicturesAndTheNextIsOnTime() {
        var queue = ReplayPictureQueue()
        for picture in pictures(60) { queue.append(picture) }
        var clock = ReplayClock(duration: 2)
        clock.play(at: 0)
        #expect(queue.picture(at: clock.position(at: 0))?.index == 0)
        // The loop was busy for 0.2 s: the frame at 0.2 shows picture 6, not 1.
        #expect(queue.picture(at: clock.position(at: 0.2))?.index == 6)
        #expect(queue.skipped == 5)
        #expect(queue.picture(at: clock.position(at: 0.2 + 1.0 / 60))?.index == 6)
        #expect(queue.picture(at: clock.position(at: 0.25))?.index == 7)
    }

    @Test func aPictureNotYetDecodedKeepsThePreviousOneAndNothingBeforeTheFirst() {
        var queue = ReplayPictureQueue()
        #expect(queue.picture(at: 0.5) == nil, "no picture is invented")
        let all = pictures(10)
        queue.append(all[0])
        queue.append(all[1])
        #expect(queue.picture(at: 0.2)?.index == 1, "the newest decoded picture stays up")
        queue.append(all[0])
        #expect(queue.count == 0, "a picture older than the one shown is ignored")
        queue.append(all[7])
        #expect(queue.picture(at: 0.2)?.index == 1 && queue.count == 1, "picture 7 is not due at 0.2 s")
        #expect(queue.picture(at: 7.0 / 30)?.index == 7)
    }

    @Test func soundRemainderStartsAtThePosition() {
        let sound = ReplaySound(sampleRate: 100, startTime: 0, samples: (0..<300).map { Int16($0) })
        #expect(sound.remainder(from: 0).count == 300)
        #expect(sound.remainder(from: 1.5).first == 150)
        #expect(sound.remainder(from: 3.5).isEmpty)
    }
}
