import Foundation
import Media

/// `rig speak`: synthesizes a text with the kiosk's speech code and plays it on the
/// configured output (or writes it as WAV), then says how long it is and how long the
/// sound took to start.
enum SpeakCommand: Command {
    static let name = "speak"
    static let summary = "Say a text on the sound output, or write it as WAV"
    static let help = """
        Usage: rig speak "TEXT" [--rate N] [--voice V] [--out FILE.wav] [--device NAME] [--json]
               rig speak --voices

          Synthesizes TEXT with espeak-ng and plays it on [audio] output (or --device),
          then prints the clip's duration and the start latency: from the request to
          the first sample handed to ALSA, and to the first sample at the DAC (ALSA's
          timestamps, CLOCK_MONOTONIC). With --out, writes the clip (22050 Hz mono
          16-bit WAV) instead of playing it. --json prints one JSON object instead.

        Options:
          --rate N       words per minute, 80-450 (default: [audio] rate)
          --voice V      an espeak-ng voice (default: [audio] voice); --voices lists them
          --out FILE     write a WAV file instead of playing
          --device NAME  an ALSA device instead of [audio] output
          --json         machine-readable output
        \(ConfigOptions.help)
        """

    static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32 {
        let listVoices = arguments.flag("--voices")
        let json = arguments.flag("--json")
        let rateText = try arguments.option("--rate")
        let voiceOption = try arguments.option("--voice")
        let out = try arguments.option("--out")
        let deviceOption = try arguments.option("--device")
        let options = try ConfigOptions(&arguments)
        let text = arguments.positional()
        try arguments.finish()
        if listVoices {
            let voices = SpeechSynthesizer.shared.voices()
            guard !voices.isEmpty else { throw .failed("espeak-ng has no voices (is espeak-ng-data installed?)") }
            for voice in voices { Log.stdout("\(voice.language.padding(toLength: 16, withPad: " ", startingAt: 0)) \(voice.name)") }
            return 0
        }
        guard let text else { throw .usage("what to say? rig speak \"TEXT\"") }
        let loaded = options.load()
        if let error = loaded.errors.first { throw .failed("\(error)") }
        let audio = loaded.config.audio
        var rate = audio.rate
        if let rateText {
            guard let value = Int(rateText) else { throw .usage("--rate takes words per minute, such as --rate 175") }
            rate = value
        }
        let voice = voiceOption ?? audio.voice
        let requested = MonotonicTime.now()
        let clip: SpeechClip
        do {
            clip = try SpeechSynthesizer.shared.synthesize(text, voice: voice, rate: rate)
        } catch {
            throw .failed(error.description)
        }
        var report = SpeakReport(clip: clip, requested: requested, synthesisTime: MonotonicTime.now() - requested)
        if let out {
            do {
                try WAVFile.data(samples: clip.samples, sampleRate: clip.sampleRate)
                    .write(to: URL(fileURLWithPath: out), options: .atomic)
            } catch {
                throw .failed("cannot write \(out): \(error.localizedDescription)")
            }
            report.file = out
        } else {
            let device = deviceOption ?? audio.output
            guard !device.isEmpty else { throw .failed("no sound output: [audio] output is empty (or give --device NAME)") }
            report.device = device
            do {
                let player = try BlockingPlayer(device: device, volume: Float(audio.volume) / 100)
                let setup = try player.open()
                report.setup = setup
                // Prepared as the kiosk prepares it (synthesized, at the device's rate)
                // before the request: the latency measured is the playback path's.
                let sound = try PreparedSound(clip.resampled(to: setup.rate))
                report.requested = MonotonicTime.now()
                report.played = try player.play(sound)
                if let end = report.played?.end { player.waitUntil(end) }
            } catch let error as AudioDeviceError {
                throw .failed(error.description)
            } catch let error as ResamplerError {
                throw .failed(error.description)
            } catch {
                throw .failed("\(error)")
            }
        }
        Log.stdout(json ? report.json.serialized : report.text)
        return 0
    }
}
