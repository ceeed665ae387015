import Foundation
import Media
import Stage

/// Voice follow's requests: `rig ctl follow on|off` and `rig ctl listen FILE.wav`
/// (the microphone taken from a file, in real time, through the same path).
extension KioskApp {
    /// At start: `[follow] enabled` arms follow for the first script opened; the key toggles it.
    func startFollow() {
        stage.followToggleWanted = { [weak self] in
            guard let self else { return }
            let on = !(voiceFollow?.isOn ?? false)
            let reply = self.follow(on: on).body
            if reply["ok"]?.boolValue != true, let message = reply["error"]?.stringValue {
                KioskLog.warning("voice follow: \(message)")
            }
        }
        guard config.follow.enabled else { return }
        let follow = makeVoiceFollow()
        if stage.controller.script == nil {
            follow.arm(language: config.follow.language)
        } else if let reason = follow.start(language: config.follow.language) {
            stage.handle(.problem(.follow, "voice follow: \(reason)"))
        }
    }

    private func makeVoiceFollow() -> VoiceFollow {
        let follow = voiceFollow ?? {
            let made = VoiceFollow(loop: loop, controller: stage.controller,
                                   folder: URL(fileURLWithPath: config.state.dir).appendingPathComponent("follow"))
            made.lead = config.follow.lead
            return made
        }()
        voiceFollow = follow
        follow.shownChanged = { [weak self] shown in self?.stage.handle(.follow(shown)) }
        follow.captureRing = audio?.captureRing
        return follow
    }

    func follow(on: Bool) -> ControlReply {
        guard on else {
            voiceFollow?.stop()
            KioskLog.info("voice follow off: the speed is the operator's again")
            return .success(["follow": voiceFollowStatus])
        }
        let follow = makeVoiceFollow()
        if let reason = follow.start(language: config.follow.language) { return .failure(reason) }
        return .success(["follow": voiceFollowStatus])
    }

    func listen(path: String) -> ControlReply {
        guard let follow = voiceFollow, follow.isOn else { return .failure("listen needs voice follow on (rig ctl follow on)") }
        guard let data = FileManager.default.contents(atPath: path) else { return .failure("cannot read \(path)") }
        guard let wav = WAVFile.read(data), wav.channels >= 1, wav.sampleRate > 0 else {
            return .failure("\(path) is not a 16-bit PCM WAV file")
        }
        let mono = wav.channels == 1 ? wav.samples
            : stride(from: 0, to: wav.samples.count - wav.channels + 1, by: wav.channels).map { wav.samples[$0] }
        let started = follow.listen(samples: mono, rate: wav.sampleRate, path: path)
        let seconds = Double(mono.count) / Double(wav.sampleRate)
        KioskLog.info("voice follow: listening to \(path) (\(String(format: "%.1f", seconds)) s) instead of the microphone")
        return .success(["seconds": .number(seconds), "started": .number(started)])
    }

    var voiceFollowStatus: JSONValue {
        voiceFollow?.status ?? ["on": false, "listening": false, "word": .null, "line": .null, "line_starts": [],
                                "lead": .number(config.follow.lead), "confidence": 0, "heard": "", "file": .null]
    }

    func withFollowStatus(_ report: JSONValue) -> JSONValue {
        guard case var .object(fields) = report else { return report }
        fields["follow"] = voiceFollowStatus
        return .object(fields)
    }
}
