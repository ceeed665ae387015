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
