import Foundation
import Stage
import Media

/// The kiosk's sound: the output and input threads started with the rest, their
/// troubles on the operator's banner (and gone again when the device is back), the
/// `audio` section of `status`, and speech on request. Started only when the kiosk opens
/// its sound devices (`KioskDevices.audio`: not headless, not in tests).
extension KioskApp {
    func startAudio() {
        let settings = config.audio
        guard !settings.output.isEmpty || !settings.input.isEmpty else { return }
        do {
            let service = try AudioService(config: settings, mailbox: loop.mailbox)
            service.onStateChange = { [weak self, weak service] role, state in
                guard let self, let service else { return }
                KioskLog.notice("audio \(role.rawValue) \(role == .output ? settings.output : settings.input): \(state)")
                self.audioStateChanged(service, role: role, state: state)
            }
            audio = service
            soundOutput.audio = service
            stage.game.speech = KioskGameSpeech(audio: service, mailbox: loop.mailbox)
            service.start()
        } catch {
            stage.handle(.problem(ProblemSource("sound"), "sound: \(error)"))
        }
    }

    /// An unavailable device is a banner line until it is ready again.
    private func audioStateChanged(_ service: AudioService, role: AudioService.Role, state: AudioDeviceState) {
        let device = role == .output ? service.config.output : service.config.input
        let source: ProblemSource = role == .output ? .soundOutput : .soundInput
        switch state {
        case let .unavailable(reason):
            stage.handle(.problem(source, role == .output
                ? "Sound output \"\(device)\" unavailable: \(reason). Spoken instructions are silent until it is back."
                : "Microphone \"\(device)\" unavailable: \(reason)."))
        case .ready: stage.handle(.problem(source, nil))
        default: break
        }
    }

    /// `rig ctl speak`: synthesized on the speech thread, played when ready. The reply
    /// comes at once with the generation id that `status` reports under `audio`.
    func speak(_ text: String) -> ControlReply {
        guard let audio else {
            return .failure(config.audio.output.isEmpty ? "no sound output configured ([audio] output is empty)"
                            : "sound is off in this kiosk (headless)")
        }
        if case .unavailable(let reason)? = audio.outputState { return .failure("sound output unavailable: \(reason)") }
        do {
            _ = try SpeechText(text)
        } catch {
            return .failure(error.description)
        }
        let generation = audio.newGeneration()
        audio.speak(text, generation: generation, report: { report in
            if case let .failed(generation, reason) = report {
                KioskLog.warning("speech \(generation) did not play: \(reason)")
            }
        })
        return .success(["generation": .int(generation)])
    }

    func withAudioStatus(_ report: JSONValue) -> JSONValue {
        guard case var .object(fields) = report else { return report }
        fields["audio"] = audio?.statusJSON ?? [
            "output": ["device": .string(config.audio.output), "state": "off"],
            "input": ["device": .string(config.audio.input), "state": "off"],
        ]
        return .object(fields)
    }
}
