import Durable
import Foundation
import Stage
import Media

/// `rig listen` (a test aid, not in `rig --help`): captures the input with the
/// kiosk's capture thread for a few seconds and writes a WAV plus, with --json, when
/// each period was at the ADC (CLOCK_MONOTONIC). The virtual rig's loopback test
/// compares those times with what `rig speak` predicted for the DAC.
///
/// SIGINT or SIGTERM ends the capture early and still writes it: Ctrl-C keeps what was
/// heard, and a test stops listening once the sound it waits for is over instead of
/// waiting out a --seconds chosen for its slowest run.
enum ListenCommand: Command {
    static let name = "listen"
    static let summary = "Capture the sound input to a WAV file (test aid)"
    static let watchesSignals = true
    static let help = """
        Usage: rig listen --seconds S --out FILE.wav [--device NAME] [--json]

          Captures [audio] input (or --device) for S seconds with the kiosk's capture
          thread and writes 48000 Hz mono 16-bit WAV. --json prints the periods'
          capture times: {"sample_rate", "frames", "overruns", "periods": [[first_frame, time], ...]}.
          Ctrl-C (SIGINT) or SIGTERM ends the capture early; what was captured is written.
        \(ConfigOptions.help)
        """

    static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32 {
        let json = arguments.flag("--json")
        let secondsText = try arguments.option("--seconds")
        let out = try arguments.option("--out")
        let deviceOption = try arguments.option("--device")
        let options = try ConfigOptions(&arguments)
        try arguments.finish()
        guard let out else { throw .usage("--out FILE.wav is required") }
        guard let seconds = Double(secondsText ?? "5"), seconds > 0, seconds <= 600 else {
            throw .usage("--seconds takes a number of seconds up to 600")
        }
        let audio = options.load().config.audio
        let device = deviceOption ?? AutoMicrophone.resolve(input: audio.input, output: audio.output)
        guard !device.isEmpty else { throw .failed("no sound input: [audio] input is empty (or give --device NAME)") }
        let stops: SignalWatcher
        do {
            stops = try SignalWatcher(signals: [SIGINT, SIGTERM])
        } catch {
            throw .failed("cannot watch for Ctrl-C: \(error)")
        }
        let wake = DispatchSemaphore(value: 0)
        let events = AudioEvents { wake.signal() }
        let capture: AudioCapture
        do {
            capture = try AudioCapture(settings: AudioCapture.Settings(device: device, ringSeconds: seconds + 5),
                                       events: events, log: { _ in })
        } catch {
            throw .failed("\(error)")
        }
        capture.start()
        defer { capture.stop() }
        var overruns = 0
        var startedAt: Double?
        let openDeadline = MonotonicTime.now() + 10
        while startedAt == nil {
            let batch = events.take()
            overruns += batch.xruns
            for state in batch.states {
                if case .ready = state { startedAt = MonotonicTime.now() }
                if case let .unavailable(reason) = state { throw .failed(reason) }
            }
            if MonotonicTime.now() > openDeadline { throw .failed("sound device \"\(device)\" did not open within 10 s") }
            _ = wake.wait(timeout: .now() + 0.1)
        }
        if json { Log.stdout("{\"ready\":\(MonotonicTime.now())}") }
        let end = (startedAt ?? MonotonicTime.now()) + seconds
        // A stop is seen within the loop's 0.1 s wait.
        while MonotonicTime.now() < end, stops.drain().isEmpty {
            let batch = events.take()
            overruns += batch.xruns
            for state in batch.states { if case let .unavailable(reason) = state { throw .failed(reason) } }
            _ = wake.wait(timeout: .now() + min(0.1, max(0.001, end - MonotonicTime.now())))
        }
        capture.stop()
        let periods = capture.ring.read(from: 0).periods
        let samples = periods.flatMap(\.samples)
        let rate = periods.first?.sampleRate ?? 48000
        do {
            // The microphone heard people: 0600 whatever the umask.
            try AtomicFile.write(WAVFile.data(samples: samples, sampleRate: rate), to: URL(fileURLWithPath: out),
                                 access: .ownerOnly)
        } catch {
            throw .failed("cannot write \(out): \(error.reason)")
        }
        if json {
            let stamps: [JSONValue] = periods.map { [.int(Int($0.firstFrame)), .number($0.time)] }
            let report: JSONValue = ["sample_rate": .int(rate), "frames": .int(samples.count), "overruns": .int(overruns),
                                     "periods": .array(stamps), "file": .string(out)]
            Log.stdout(report.serialized)
        } else {
            Log.stdout(String(format: "captured %.3f s from %@ into %@, %d overruns", Double(samples.count) / Double(rate), device, out, overruns))
        }
        return 0
    }
}
