import Foundation
import Media
import Prompter
import Stage

/// The recording service wired to the stage: prompter takes through `KioskTakeRecorder`
/// (the stage runs the countdown and the take's state), game attempts through
/// `KioskGameRecording`; what a crash left half-written is settled at start.
extension KioskApp {
    static func recordingSettings(_ config: RigConfig) -> RecordingService.Settings {
        RecordingService.Settings(enabled: config.recording.enabled, folder: config.recordingsDirectory,
                                  recorder: config.recorderSettings, audio: config.recording.audio,
                                  retentionDays: config.recording.retentionDays,
                                  countdown: config.recording.countdown)
    }

    /// At start: what a crash left half-written is recovered or goes, and the service learns the
    /// microphone and reports how takes end.
    func startRecording() {
        guard let recording else { return }
        let cutShort = recording.settleIncompleteFiles()
        for file in cutShort.recovered { KioskLog.notice("recovered \(file), a take cut short by a crash or power cut") }
        for file in cutShort.removed { KioskLog.notice("removed \(file), a recording cut short by a crash") }
        for clip in recording.applyRetention(now: Date()) {
            KioskLog.notice("removed the media of \(clip.id), older than \(recording.settings.retentionDays) days (its JSON stays)")
        }
        recording.audioRing = audio?.captureRing
        recording.onEnded = { [weak self] outcome in
            if outcome.kind == .game { self?.gameRecording?.ended(outcome) } else { self?.stage.handle(.takeEnded(message: outcome.message)) }
            // A take (or an attempt) that ended is listed at once.
            self?.stage.handle(.clipsChanged)
        }
        stage.takes.recorder = KioskTakeRecorder(service: recording, videoFormat: { [weak self] in self?.cameraVideoFormat },
                                                 cameraState: { [weak self] in self?.camera.map { "\($0.state)" } ?? "off" })
        startGameRecording(recording)
        let store = KioskClipStore(service: recording, exportFolder: config.recording.exportFolder)
        store.gameRecording = gameRecording
        store.changed = { [weak self] in self?.stage.handle(.clipsChanged) }
        let decoding = KioskReplayDecoding(service: recording, mailbox: loop.mailbox)
        decoding.delivered = { [weak self] id, delivery in self?.stage.handle(.replayDelivery(id: id, delivery)) }
        stage.clips.store = store
        stage.clips.decoder = decoding
        stage.clips.sound = soundOutput
        stage.clips.refresh()
    }

    /// The camera's frame layout now, as the recorder takes it (the stage's frame when
    /// the frames come from elsewhere than this kiosk's camera: headless tests).
    var cameraVideoFormat: VideoTrackFormat? {
        // What the capture hands the recorder, which the displays' frames may not be.
        if let captured = camera?.captured {
            guard let format = RecordingTap.recordedFormat(captured.format) else { return nil }
            return VideoTrackFormat(format: format, width: captured.width, height: captured.height)
        }
        guard let frame = camera?.latestFrame ?? stage.camera.frame, let format = RecordingTap.recordedFormat(frame.format) else { return nil }
        return VideoTrackFormat(format: format, width: frame.width, height: frame.height)
    }
}
