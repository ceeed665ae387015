import Foundation
import JSON

/// The sound devices the kiosk opened for the self-test ([audio] output and input as
/// "auto" resolved them), and why one is missing.
package struct SoundFacts: Equatable, Sendable {
    package var output: String
    package var input: String
    /// Why sound out cannot play now (none configured, the card unplugged).
    package var outputProblem: String?
    package var inputProblem: String?

    package init(output: String, input: String, outputProblem: String?, inputProblem: String?) {
        self.output = output
        self.input = input
        self.outputProblem = outputProblem
        self.inputProblem = inputProblem
    }
}

/// What the microphone captured from a time on: mono samples and the ADC time of the first.
package struct HeardSound: Equatable, Sendable {
    package var time: Double
    package var sampleRate: Int
    package var samples: [Int16]

    package init(time: Double, sampleRate: Int, samples: [Int16]) {
        self.time = time
        self.sampleRate = sampleRate
        self.samples = samples
    }
}

/// The self-test's tone and how it is found again in what the microphone heard.
package enum SelfTestTone {
    package static let frequency = 1000.0
    package static let seconds = 0.3
    /// -6 dBFS: loud enough to cross a room, not a shriek.
    package static let amplitude = 0.5

    /// The tone at `rate`, with 5 ms ramps so it starts and ends without a click.
    package static func samples(rate: Int) -> [Int16] {
        let count = Int(seconds * Double(rate))
        let ramp = max(1, rate / 200)
        return (0..<count).map { i in
            let edge = min(1, Double(min(i, count - 1 - i)) / Double(ramp))
            return Int16(amplitude * edge * 32767 * sin(2 * .pi * frequency * Double(i) / Double(rate)))
        }
    }

    package struct Found: Equatable, Sendable {
        /// From the tone's first sample at the DAC to its arrival at the ADC.
        package var latency: Double
        /// The tone's level as heard, dBFS.
        package var level: Double
    }

    /// The tone's onset in `heard`, played with its first sample at the DAC at `start`:
    /// the first 5 ms window whose 1 kHz amplitude (Goertzel) is above both -50 dBFS and
    /// eight times the room's level before the tone. nil: not heard.
    package static func find(in heard: HeardSound, playedAt start: Double) -> Found? {
        let window = max(8, heard.sampleRate / 200)
        guard heard.samples.count >= window * 4 else { return nil }
        var amplitudes: [(time: Double, amplitude: Double)] = []
        var index = 0
        while index + window <= heard.samples.count {
            let time = heard.time + Double(index) / Double(heard.sampleRate)
            amplitudes.append((time, goertzel(heard.samples[index..<(index + window)], rate: heard.sampleRate)))
            index += window
        }
        let before = amplitudes.filter { $0.time < start }.map(\.amplitude).sorted()
        let room = before.isEmpty ? 0 : before[before.count / 2]
        let threshold = max(pow(10, -50.0 / 20), room * 8)
        guard let onset = amplitudes.first(where: { $0.time >= start - 0.005 && $0.amplitude > threshold }) else { return nil }
        let peak = amplitudes.filter { $0.time >= onset.time && $0.time < onset.time + seconds }.map(\.amplitude).max() ?? onset.amplitude
        return Found(latency: max(0, onset.time - start), level: 20 * log10(max(peak, 1e-9)))
    }

    /// The amplitude (0–1 of full scale) of the tone's frequency in `samples`.
    static func goertzel(_ samples: ArraySlice<Int16>, rate: Int) -> Double {
        let k = 2 * cos(2 * .pi * frequency / Double(rate))
        var s1 = 0.0, s2 = 0.0
        for sample in samples {
            let s = Double(sample) / 32768 + k * s1 - s2
            s2 = s1
            s1 = s
        }
        let power = max(0, s1 * s1 + s2 * s2 - k * s1 * s2)
        return 2 * sqrt(power) / Double(samples.count)
    }
}

/// The sound's verdict: a tone played, heard back through the microphone (latency and
/// level), and a line spoken by espeak-ng.
package struct SoundCheck {
    package var facts: SoundFacts
    /// The tone's first sample at the DAC, or why it did not play.
    package var tone: Result<Double, SelfTestFailure>?
    package var found: SelfTestTone.Found?
    /// How the spoken line went: nil when it never ended in time.
    package var speech: SoundReport?

    package init(facts: SoundFacts, tone: Result<Double, SelfTestFailure>?, found: SelfTestTone.Found?, speech: SoundReport?) {
        self.facts = facts
        self.tone = tone
        self.found = found
        self.speech = speech
    }

    package var step: SelfTestStep {
        var lines = ["output: " + (facts.output.isEmpty ? "none" : facts.output),
                     "input: " + (facts.input.isEmpty ? "none" : facts.input)]
        var json: [String: JSONValue] = ["output": .string(facts.output), "input": .string(facts.input)]
        var finding: String?
        let step = { (verdict: SelfTestVerdict, fix: String?) in
            SelfTestStep(id: "sound", title: "Sound", verdict: verdict, lines: lines, fix: fix,
                         finding: finding ?? lines.last, figures: json)
        }
        if let problem = facts.outputProblem {
            lines.append("nothing can play: \(problem)")
            return step(.problem, "Nothing will be heard: no speech in the game, no sound in replays. Plug in speakers or name the card in [audio] output (rig devices lists them).")
        }
        switch speech {
        case .ended?: lines.append("espeak-ng spoke a line")
        case let .failed(reason)?: lines.append("espeak-ng could not speak: \(reason)")
        default: lines.append("espeak-ng's line did not finish in time")
        }
        let spoken = lines.last
        json["speech"] = .bool(speech.map { if case .ended = $0 { true } else { false } } ?? false)
        if case let .failure(failure)? = tone {
            lines.append("the tone did not play: \(failure.reason)")
            return step(.problem, "The sound card refused to play; check the journal (journalctl -u rig) for ALSA's error.")
        }
        if let problem = facts.inputProblem ?? (facts.input.isEmpty ? "no microphone was found" : nil) {
            lines.append("nothing can be heard: \(problem)")
            return step(.warning, "Without a microphone recordings are silent and voice follow cannot listen. Plug one in, or name it in [audio] input.")
        }
        guard let found else {
            lines.append("the tone was played but not heard back")
            return step(.problem, "No sound heard: is the microphone muted or too far from the speaker? (alsamixer, F4 for capture.)")
        }
        json["latency_ms"] = .number(DisplayCheck.rounded(found.latency * 1000, 1))
        json["level_dbfs"] = .number(DisplayCheck.rounded(found.level, 1))
        lines.append(String(format: "a 1 kHz tone came back after %.0f ms at %.0f dBFS", found.latency * 1000, found.level))
        if found.level < -40 {
            return step(.warning, "The microphone hears the speaker faintly: raise its capture level (alsamixer, F4) or move it closer.")
        }
        if case .ended? = speech {} else {
            finding = spoken
            return step(.warning, "espeak-ng did not speak; the game's spoken instructions will be missing. Check that espeak-ng-data is installed.")
        }
        return step(.ok, nil)
    }
}

/// Why part of a self-test could not run, in words.
package struct SelfTestFailure: Error, Equatable, Sendable {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
}
