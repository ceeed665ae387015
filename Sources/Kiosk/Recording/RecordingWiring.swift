import Foundation
import Media
import Stage

/// The recorder wired to the stage's ports: prompter takes through `KioskTakeRecorder`,
/// game attempts through `KioskGameRecording`, the Clips screen through the store, the
/// decoder and the sound output. What a crash left half-written is settled first.
enum RecordingWiring {
    /// What the recorder needs of the kiosk around it.
    struct Kiosk {
        var loop: EventLoop
        var stage: RigStage
        var config: RigConfig
        var microphone: AudioCaptureRing?
        var gameSpeech: KioskGameSpeech?
        /// The camera's recorded format and its state in a few words, read when a take starts.
        var videoFormat: () -> VideoTrackFormat?
        var cameraState: () -> String
    }

    /// Wires `recording` and returns what the kiosk keeps of it.
    static func wire(_ recording: RecordingService, into kiosk: Kiosk) -> Wired {
        let stage = kiosk.stage
        RecordingsAtStart.settle(recording)
        recording.audioRing = kiosk.microphone
        stage.takes.recorder = KioskTakeRecorder(service: recording, videoFormat: kiosk.videoFormat,
                                                 cameraState: kiosk.cameraState)

        let loop = kiosk.loop
        let game = KioskGameRecording(service: recording, clock: loop.clock, schedule: { loop.addTimer(at: $0, $1) })
        game.game = stage.game
        game.voice = kiosk.config.audio.voice
        let painter = stage.renderer.painter
        game.badgePicture = { letter, width, height in
            painter.flatMap { CueBadge.picture(letter: letter, pictureWidth: width, pictureHeight: height, painter: $0) }
        }
        game.videoFormat = kiosk.videoFormat
        game.cameraState = kiosk.cameraState
        recording.onPumped = { [weak game] take in game?.pumped(take: take) }
        recording.onEnded = { [weak stage, weak game] outcome in
            if outcome.kind == .game { game?.ended(outcome) } else { stage?.handle(.takeEnded(message: outcome.message)) }
            // A take (or an attempt) that ended is listed at once.
            stage?.handle(.clipsChanged)
        }
        kiosk.gameSpeech?.onPlay = { [weak game] generation, clip in game?.played(generation: generation, clip: clip) }
        stage.game.recording = game
        game.resumePendingExports()

        let store = KioskClipStore(service: recording, exportFolder: kiosk.config.recording.exportFolder)
        store.gameRecording = game
        store.changed = { [weak stage] in stage?.handle(.clipsChanged) }
        let decoding = KioskReplayDecoding(service: recording, mailbox: loop.mailbox)
        decoding.delivered = { [weak stage] id, delivery in stage?.handle(.replayDelivery(id: id, delivery)) }
        stage.clips.store = store
        stage.clips.decoder = decoding
        stage.clips.refresh()
        let retention = RetentionSchedule(service: recording, clock: loop.clock, schedule: { loop.addTimer(at: $0, $1) })
        retention.removed = { [weak stage] _ in stage?.handle(.clipsChanged) }
        retention.start()
        return Wired(game: game, retention: retention)
    }

    /// What the kiosk keeps of the wiring: the game's recording port and the hourly retention.
    struct Wired {
        let game: KioskGameRecording
        let retention: RetentionSchedule
    }
}
