import Stage

/// The kiosk's sound: `[audio]`'s output and input opened by the audio service (not
/// headless, not in tests), their troubles on the banner until the device is back, and
/// what plays or listens through them: the stage's sounds, the game's speech, the
/// recorder's and voice follow's microphone. Without the devices `output` still
/// answers the stage, and says why nothing plays.
final class KioskSound {
    let output: KioskSoundOutput
    private let config: RigConfig.Audio
    private(set) var service: AudioService?
    private(set) var gameSpeech: KioskGameSpeech?
    /// The room microphone's last seconds, for takes, attempts and voice follow.
    var captureRing: AudioCaptureRing? { service?.captureRing }

    init(config: RigConfig.Audio) {
        self.config = config
        output = KioskSoundOutput(configured: config.output)
    }

    /// Opens the devices on their threads; their states arrive on the loop. Returns why
    /// recordings will be silent when `auto` finds no microphone.
    func start(loop: EventLoop, stage: RigStage, deviceReport: KioskDeviceReport) -> String? {
        var settings = config
        var noMicrophone: String?
        if settings.input == AutoMicrophone.keyword {
            settings.input = AutoMicrophone.resolve(input: settings.input, output: settings.output)
            KioskLog.notice("audio input \"auto\": " + (settings.input.isEmpty ? "no capture device found" : settings.input))
            if settings.input.isEmpty { noMicrophone = "no microphone was found ([audio] input = \"auto\")" }
        }
        guard !settings.output.isEmpty || !settings.input.isEmpty else { return noMicrophone }
        do {
            let service = try AudioService(config: settings, mailbox: loop.mailbox)
            service.onStateChange = { [weak stage] role, state in
                KioskLog.notice("audio \(role.rawValue) \(role == .output ? settings.output : settings.input): \(state)")
                guard let line = AudioBanner.line(role, device: role == .output ? settings.output : settings.input,
                                                  state: state) else { return }
                stage?.handle(.problem(role == .output ? .soundOutput : .soundInput, line))
            }
            self.service = service
            output.audio = service
            deviceReport.audio = service
            let speech = KioskGameSpeech(audio: service, mailbox: loop.mailbox)
            gameSpeech = speech
            stage.game.speech = speech
            service.start()
        } catch {
            stage.handle(.problem(ProblemSource("sound"), "sound: \(error)"))
        }
        return noMicrophone
    }

    func stop() { service?.stop() }
}
