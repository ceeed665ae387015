import Foundation
import Media
import Prompter
import Testing

/// Voice follow end to end without devices: espeak-ng reads two paragraphs of the GPL
/// (a text the project did not write) at 165 words a minute, pauses 3 s, then reads on
/// at 230; the audio goes through the recogniser in 100 ms chunks (as the microphone
/// delivers it), the aligner and the follow driver steer a real engine, and espeak-ng's
/// word events are the truth. The clock is the audio's own (the recogniser's compute
/// time is measured separately as its real-time factor).
@Suite struct FollowPassageTests {
    static let wordsPerLine = 8
    static let lineHeight = 60.0
    static let pause = 3.0

    static func threadCPUTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    @Test func followsSpeechThatChangesSpeedAndPauses() throws {
        let license = "/usr/share/common-licenses/GPL-3"
        // base-files installs it on every Debian.
        let data = try #require(FileManager.default.contents(atPath: license), "\(license) missing")
        let paragraphs = String(decoding: data, as: UTF8.self).components(separatedBy: "Preamble")[1]
            .components(separatedBy: "\n\n").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .filter { !$0.isEmpty }
        let first = try SpeechSynthesizer.shared.synthesize(paragraphs[1], rate: 165).resampled(to: SpeechRecognizer.sampleRate)
        let second = try SpeechSynthesizer.shared.synthesize(paragraphs[2], rate: 230).resampled(to: SpeechRecognizer.sampleRate)
        let rate = Double(SpeechRecognizer.sampleRate)
        let audio = first.samples + [Int16](repeating: 0, count: Int(Self.pause * rate)) + second.samples
        let secondStart = first.duration + Self.pause

        // The script is what was spoken; truth is (time, script word) from espeak-ng's word events.
        let script = ScriptWords(first.text + "\n\n" + second.text)
        let secondOffset = first.text.unicodeScalars.count + 2
        func scriptWord(atScalar offset: Int) -> Int {
            script.words.last { $0.scalarOffset <= offset }?.index ?? 0
        }
        let truth = first.words.map { ($0.time(sampleRate: first.sampleRate), scriptWord(atScalar: $0.characterOffset - 1)) }
            + second.words.map { (secondStart + $0.time(sampleRate: second.sampleRate),
                                  scriptWord(atScalar: secondOffset + $0.characterOffset - 1)) }
        func spokenWord(at t: Double) -> Int { truth.last { $0.0 <= t }?.1 ?? 0 }

        let model = try ScriptLanguageModel(sentences: script.sentences)
        let dictionary = try PronouncingDictionary.installed(words: model.vocabulary)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-follow-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let recognizer = try SpeechRecognizer(model: model, dictionary: dictionary, folder: folder)

        let offsets = script.words.indices.map { i in
            Double(i / Self.wordsPerLine) * Self.lineHeight
                + Double(i % Self.wordsPerLine) / Double(Self.wordsPerLine) * Self.lineHeight
        }
        var engine = PrompterEngine(speed: 60)
        engine.open(at: 0, maxOffset: offsets.last ?? 0)
        engine.play(at: 0)
        var driver = FollowDriver(wordOffsets: offsets, lineHeight: Self.lineHeight, fixedSpeed: 60)
        var aligner = WordAligner(tokens: script.tokens)
        var utterances: [Int: [HeardWord]] = [:]

        let chunk = SpeechRecognizer.sampleRate / 10
        var computing = 0.0
        var seconds: [(t: Double, line: Int, spokenLine: Int)] = []
        var readingAt: [(t: Double, word: Int, offset: Double)] = []
        var start = 0
        while start < audio.count {
            let piece = Array(audio[start..<min(audio.count, start + chunk)])
            start += piece.count
            // The thread's CPU time, not the wall clock: the machine is shared, and the
            // real-time factor is about the recogniser's work.
            let began = Self.threadCPUTime()
            let hearing = recognizer.process(piece)
            computing += Self.threadCPUTime() - began
            let t = Double(start) / rate
            if let hearing {
                utterances[hearing.utterance] = hearing.words
                let heard = utterances.keys.sorted().flatMap { utterances[$0] ?? [] }
                if let last = heard.last, let position = aligner.update(heard: heard.map(\.word), tokenWord: script.tokenWord) {
                    driver.heard(word: position.word, confidence: position.confidence, heardAt: last.end)
                    if ProcessInfo.processInfo.environment["RIG_FOLLOW_TRACE"] != nil {
                        print("t=\(t) heard \(heard.suffix(6).map(\.word)) -> word \(position.word) conf \(position.confidence) truth \(spokenWord(at: t))")
                    }
                }
            }
            driver.drive(&engine, at: t)
            let offset = engine.offset(at: t)
            readingAt.append((t, offsets.lastIndex { $0 <= offset + 0.5 } ?? 0, offset))
            if start % SpeechRecognizer.sampleRate == 0 || start == audio.count {
                seconds.append((t, Int(offset / Self.lineHeight), spokenWord(at: t) / Self.wordsPerLine))
            }
        }

        let within = seconds.filter { abs($0.line - $0.spokenLine) <= 2 }
        let accuracy = Double(within.count) / Double(seconds.count)
        for miss in seconds where abs(miss.line - miss.spokenLine) > 2 {
            print("follow miss at \(miss.t) s: reading line \(miss.line), spoken line \(miss.spokenLine)")
        }
        // Latency: from a word's start to the reading line reaching it.
        var latencies: [Double] = []
        for (time, word) in truth {
            if let reached = readingAt.first(where: { $0.t >= time && $0.word >= word }) { latencies.append(reached.t - time) }
        }
        latencies.sort()
        let median = latencies.isEmpty ? .infinity : latencies[latencies.count / 2]
        let realTimeFactor = computing / (Double(audio.count) / rate)
        print(String(format: "follow figures: %d words, %.1f s audio, accuracy %.0f%% of %d seconds within 2 lines, "
                     + "latency median %.2f s, recognition RTF %.3f", script.words.count, Double(audio.count) / rate,
                     accuracy * 100, seconds.count, median, realTimeFactor))

        // Every second within 2 lines of the spoken word (the pause and the catch-up included).
        #expect(within.count == seconds.count, "seconds off by more than 2 lines")
        // (The engine keeps only seconds of history: offsets are read as the run goes.)
        func offset(at t: Double) -> Double { readingAt.first { $0.t >= t - 0.001 }?.offset ?? .nan }
        // Holds during the pause: from 1.5 s into it to its end, the reading line stands still.
        let pauseStart = first.duration
        #expect(abs((offset(at: pauseStart + 1.5)) - (offset(at: secondStart))) <= 1, "the reading line moved during the pause")
        // Catches up within 1 s after the pause: the reading line is within 2 lines of the talent.
        let after = secondStart + 1
        let lineAfter = Int(offset(at: after) / Self.lineHeight)
        #expect(abs(lineAfter - spokenWord(at: after) / Self.wordsPerLine) <= 2, "not caught up 1 s after the pause")
        #expect(median <= 0.7, "follow latency median")
        #expect(realTimeFactor <= 0.25, "recognition real-time factor")
    }
}
