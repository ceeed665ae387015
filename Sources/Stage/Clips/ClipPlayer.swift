import Foundation
import Media
import Render

/// One clip replayed on the Clips screen, on one clock: its pictures from the decoder,
/// queued a little ahead of the position, and its sound on the output (the mixer speech
/// uses), the clock following the sound's DAC time so the picture shown at a vblank
/// and the sample heard then are the same moment of the clip. The screen around it
/// (the list, the selection, the console's notices) is ClipsController's.
package final class ClipPlayer {
    package var decoder: any ReplayDecoderPort = NoReplayDecoder()
    package var sound: any SoundOutputPort = NoSoundOutput()
    /// The clip being replayed.
    package private(set) var replay: ClipReplay?
    /// The replay's sound as the decoder hands it over, and what the output was told of it.
    private var feed = ReplaySoundFeed()
    private var soundStream: (generation: Int, id: Int?)?
    private let now: () -> Double
    /// What the replay shows changed: the inner display draws again.
    var changed: () -> Void = {}

    init(now: @escaping () -> Double) {
        self.now = now
    }

    /// Opens `clip` (one with media) for replay, playing from the top.
    func open(_ clip: ClipSummary) {
        if replay != nil { close() }
        var opened = ClipReplay(id: clip.id, title: clip.displayName, duration: clip.duration ?? .infinity, cue: clip.cue)
        let time = now()
        opened.clock.play(at: time)
        replay = opened
        feed = ReplaySoundFeed()
        // The replay is in place first: a clip that cannot be opened is delivered at once.
        replay?.source = decoder.open(clip.id, soundRate: sound.sampleRate)
        decoder.want(clip.id, through: ClipReplay.lead)
        replay?.soundFrom = 0
        playSound(from: 0)
        changed()
    }

    /// Pauses a playing replay, or plays a paused one on (from the top once it ended).
    func toggle(at time: Double) {
        guard var replay else { return }
        if replay.clock.isPlaying(at: time) {
            replay.clock.pause(at: time)
            replay.soundFrom = nil
            self.replay = replay
            stopSound()
        } else {
            let restarting = replay.clock.hasEnded(at: time)
            replay.clock.play(at: time)
            if restarting {
                // From the top again: a fresh decoder (a decoder only goes forward).
                replay.pictures.removeAll()
                replay.decoderEnded = false
                stopSound()
                decoder.close(replay.id)
                feed = ReplaySoundFeed()
                replay.source = decoder.open(replay.id, soundRate: sound.sampleRate)
            }
            let position = replay.clock.position(at: time)
            replay.soundFrom = position
            self.replay = replay
            decoder.want(replay.id, through: position + ClipReplay.lead)
            playSound(from: position)
        }
        changed()
    }

    /// The replay over the whole inner display, or back in its place on the screen.
    func setFullScreen(_ on: Bool) {
        replay?.fullScreen = on
    }

    /// Closes the replay: the decoder stops, its lease goes, the sound stops.
    func close() {
        guard let replay else { return }
        self.replay = nil
        stopSound()
        decoder.close(replay.id)
        changed()
    }

    /// Pictures and sound (or the end, or a failure) from the decoder: pictures to the
    /// queue, sound to the output as it comes. True when the replay ended or failed
    /// (the screen's controls change with it).
    func delivered(id: String, _ delivery: ClipDecoder.Delivery) -> Bool {
        guard var replay, replay.id == id else { return false }
        var actions: [ReplaySoundFeed.Action] = []
        for piece in delivery.sound { actions += feed.received(piece) }
        if delivery.soundEnded { actions += feed.soundEnded() }
        // Only what is ahead of the position is kept: a long take holds a second of sound.
        let time = now()
        if replay.clock.isPlaying(at: time) { feed.trim(before: replay.clock.position(at: time)) }
        for picture in delivery.pictures { replay.pictures.append(picture) }
        if delivery.ended {
            replay.decoderEnded = true
            // The clip ends with its last picture when the JSON gave no duration.
            if let last = replay.pictures.newestTime, replay.clock.duration == .infinity {
                replay.clock.duration = last + 1.0 / 30
            }
        }
        if let failure = delivery.failure { replay.failure = "Replay failed: \(failure.description)" }
        self.replay = replay
        perform(actions)
        changed()
        return delivery.failure != nil || delivery.ended
    }

    /// The replay's sound from `position` on, through the same output (and mixer) as speech.
    private func playSound(from position: Double) {
        guard sound.sampleRate != nil else { return }
        stopSound()
        feed.trim(before: position)
        perform(feed.play(from: position))
    }

    private func stopSound() {
        feed.pause()
        if let stream = soundStream { sound.cancel(generation: stream.generation) }
        soundStream = nil
    }

    private func perform(_ actions: [ReplaySoundFeed.Action]) {
        guard let id = replay?.id else { return }
        for action in actions {
            switch action {
            case let .start(position, samples, rate):
                let generation = sound.newGeneration()
                let stream = sound.stream(samples, rate: rate, generation: generation, slipped: { [weak self] seconds in
                    // The decoder fell behind: the sound went on late, and the picture waits as long.
                    self?.soundSlipped(id: id, by: seconds)
                }, report: { [weak self] report in
                    switch report {
                    case let .started(time):
                        // The first sample's DAC time: the replay's clock follows the sound.
                        self?.soundStarted(id: id, position: position, time: time)
                    case let .failed(reason) where reason != "stopped":
                        KioskLog.warning("replay sound did not play: \(reason)")
                    default: break
                    }
                })
                soundStream = (generation, stream)
            case let .append(samples):
                guard let stream = soundStream?.id, let rate = feed.sampleRate else { continue }
                sound.append(samples, rate: rate, to: stream)
            case .finish:
                if let stream = soundStream?.id { sound.finish(stream) }
            }
        }
    }

    /// The output says the replay's sound from `position` reached the DAC at `time`
    /// (CLOCK_MONOTONIC): the replay's clock follows it, so the picture shown at a
    /// vblank and the sample heard then are the same moment of the clip. A report for a
    /// play since paused or replaced changes nothing.
    package func soundStarted(id: String, position: Double, time: Double) {
        guard var replay, replay.id == id, let asked = replay.soundFrom, abs(asked - position) < 1e-6,
              replay.clock.isPlaying(at: now()) else { return }
        let expected = replay.clock.time(ofPosition: position) ?? time
        replay.clock.anchor(position: position, at: time)
        replay.soundFrom = nil
        replay.soundShift = time - expected
        self.replay = replay
        changed()
    }

    /// The replay's sound ran dry (its decoding fell behind) and went on `seconds` late:
    /// the clock waits as long, so picture and sound stay together.
    package func soundSlipped(id: String, by seconds: Double) {
        guard var replay, replay.id == id, seconds > 0, replay.clock.isPlaying(at: now()) else { return }
        replay.clock.delay(by: seconds)
        replay.soundShift = (replay.soundShift ?? 0) + seconds
        self.replay = replay
        changed()
    }

    /// The replay at a frame's presentation time: the picture due then is taken from
    /// the queue, and the decoder is asked for what the next frames will need.
    func shown(at time: Double) -> (shown: ClipReplay.Shown, picture: ReplayPicture?)? {
        guard var replay else { return nil }
        let position = replay.clock.position(at: time)
        let picture = replay.pictures.picture(at: position)
        let playing = replay.clock.isPlaying(at: time)
        self.replay = replay
        if playing { decoder.want(replay.id, through: position + ClipReplay.lead) }
        let shown = ClipReplay.Shown(id: replay.id, title: replay.title, playing: playing, position: position,
                                     duration: replay.clock.duration, fullScreen: replay.fullScreen,
                                     failure: replay.failure, pictureIndex: picture?.index,
                                     cue: replay.cueLetter(over: picture))
        return (shown, picture)
    }

    /// A playing replay needs every vblank until its end.
    func isPlaying(at time: Double) -> Bool {
        guard let replay, replay.failure == nil else { return false }
        return replay.clock.isPlaying(at: time)
    }

    /// `clips.replay` in `rig ctl status`.
    var status: JSONValue {
        let time = now()
        return replay.map { replay in
            ["id": .string(replay.id), "position": .number(replay.clock.position(at: time)),
             "playing": .bool(replay.clock.isPlaying(at: time)), "full_screen": .bool(replay.fullScreen),
             "shown": .optional(replay.pictures.shown.map { "\($0.index)" }), "failure": .optional(replay.failure),
             "source": .string(replay.source.rawValue),
             "cue": .optional(replay.cueLetter(over: replay.pictures.shown).map(String.init)),
             "sound_shift_ms": replay.soundShift.map { .number(($0 * 1000).rounded()) } ?? .null]
        } ?? .null
    }
}
