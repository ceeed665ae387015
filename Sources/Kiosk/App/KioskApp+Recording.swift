import Foundation
import Media
import Prompter
import Stage

/// Prompter takes: Record (the console button, a key, `rig ctl record start`) runs the
/// countdown of `[recording] countdown` seconds, then records camera and microphone
/// while the talent reads; Stop ends the take and keeps the file with the script, the
/// position range and the reading settings in its JSON. The operator pressing Record
/// is the consent: nothing records otherwise.
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
            if outcome.kind == .game { self?.gameRecording?.ended(outcome) } else { self?.takeEnded(outcome) }
        }
        startGameRecording(recording)
        stage.recordWanted = { [weak self] start in
            guard let self else { return }
            let reply = self.record(start: start).body
            if reply["ok"]?.boolValue != true, let message = reply["error"]?.stringValue {
                self.showTakeProblem("Recording: \(message)")
            }
        }
    }

    /// `rig ctl record start|stop`, the console's Record button and the record key.
    func record(start: Bool) -> ControlReply {
        guard let recording else { return .failure(RecordingError.disabled.description) }
        return start ? startPrompterTake(recording) : stopPrompterTake(recording)
    }

    private func startPrompterTake(_ recording: RecordingService) -> ControlReply {
        guard recording.settings.enabled else { return .failure(RecordingError.disabled.description) }
        if let generation = recording.currentGeneration { return .failure(RecordingError.busy(generation: generation).description) }
        guard takeCountdown == nil else { return .failure("the countdown is already running") }
        guard cameraVideoFormat != nil else {
            return .failure(RecordingError.noCamera(camera.map { "\($0.state)" } ?? "off").description)
        }
        let seconds = Double(recording.settings.countdown)
        guard seconds > 0 else { return beginPrompterTake(recording) }
        let endsAt = loop.clock() + seconds
        let timer = loop.addTimer(at: endsAt) { [weak self] in
            guard let self, let recording = self.recording else { return }
            self.takeCountdown = nil
            let reply = self.beginPrompterTake(recording).body
            if reply["ok"]?.boolValue != true, let message = reply["error"]?.stringValue {
                self.stage.setTake(.none)
                self.showTakeProblem("Recording did not start: \(message)")
            }
        }
        takeCountdown = TakeCountdown(endsAt: endsAt, timer: timer)
        stage.setTake(.countdown(endsAt: endsAt))
        return .success(["state": "countdown", "seconds": .number(seconds)])
    }

    private func beginPrompterTake(_ recording: RecordingService) -> ControlReply {
        let time = loop.clock()
        let controller = stage.controller
        var annotations: [String: String] = [
            "script": controller.script?.id ?? "",
            "script_title": controller.script?.title ?? "",
            "position_start": String(format: "%.1f", controller.engine.offset(at: time)),
            "speed": "\(controller.engine.speed)",
        ]
        if let data = try? JSONEncoder().encode(controller.settings), let text = String(data: data, encoding: .utf8) {
            annotations["reading_settings"] = text
        }
        do {
            let generation = try recording.start(RecordingTake(kind: .prompter, annotations: annotations),
                                                 video: cameraVideoFormat,
                                                 cameraState: camera.map { "\($0.state)" } ?? "off")
            showTakeProblem(nil)
            stage.setTake(.recording)
            return .success(["state": "recording", "generation": .int(generation)])
        } catch {
            return .failure(error.description)
        }
    }

    private func stopPrompterTake(_ recording: RecordingService) -> ControlReply {
        if let countdown = takeCountdown {
            loop.cancel(countdown.timer)
            takeCountdown = nil
            stage.setTake(.none)
            return .success(["state": "idle", "cancelled": "countdown"])
        }
        guard let generation = recording.currentGeneration, recording.phase == .recording else {
            return .failure("no take is running")
        }
        let end = String(format: "%.1f", stage.controller.engine.offset(at: loop.clock()))
        do {
            try recording.finish(generation: generation, annotations: ["position_end": end])
        } catch {
            return .failure(error.description)
        }
        return .success(["state": "finishing", "generation": .int(generation)])
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

    /// A take that ended by itself says why on the operator's banner until the next take.
    private func takeEnded(_ outcome: RecordingOutcome) {
        if outcome.kind == .prompter { stage.setTake(.none) }
        showTakeProblem(outcome.message)
    }

    private func showTakeProblem(_ message: String?) {
        stage.handle(.problem(.take, message))
    }

    /// `recording` in `rig ctl status`.
    func withRecordingStatus(_ report: JSONValue) -> JSONValue {
        guard case var .object(fields) = report else { return report }
        if case var .object(recordingFields)? = recording?.statusJSON {
            if let countdown = takeCountdown {
                recordingFields["state"] = "countdown"
                recordingFields["countdown_remaining"] = .number(max(0, countdown.endsAt - loop.clock()))
            }
            fields["recording"] = .object(recordingFields)
        } else {
            fields["recording"] = ["state": "off"]
        }
        return .object(fields)
    }
}

/// The countdown before a prompter take: when it ends and the timer that starts it.
struct TakeCountdown {
    let endsAt: Double
    let timer: EventLoop.TimerID
}
