import Foundation
import Glibc
import Markup
import Media
import Prompter

/// Why the follow passage cannot be built or heard.
package enum FollowPassageError: Error, CustomStringConvertible {
    case textMissing(path: String)
    case speech(SpeechError)
    case resampling(ResamplerError)
    case listening(ListeningError)

    package var description: String {
        switch self {
        case let .textMissing(path): "\(path) is missing (base-files installs it on every Debian)"
        case let .speech(error): "espeak-ng could not read the passage: \(error)"
        case let .resampling(error): "the passage could not be resampled to 16 kHz: \(error)"
        case let .listening(error): "the recogniser could not be made: \(error)"
        }
    }
}

/// Voice follow's measured passage, shared by the end-to-end test and `rig bench`:
/// espeak-ng reads two paragraphs of the GPL (a text the project did not write) at 165
/// words a minute, pauses 3 s, then reads on at 230. espeak-ng's word events are the
/// truth: at each time, the script word being spoken. The script is laid out as
/// `wordsPerLine` words to a line of `lineHeight` pixels. Between the two paragraphs the
/// script has a direction, `[PAUSE FOR A BREATH]`, which the talent does not say
/// (issue 42): it is read by the library's own parser, and follow must not wait for it.
package struct FollowPassage {
    package static let license = "/usr/share/common-licenses/GPL-3"
    package static let wordsPerLine = 8
    package static let lineHeight = 60.0
    package static let pause = 3.0

    /// 16 kHz mono: the first read, the pause, the second read.
    package let audio: [Int16]
    package static let direction = "[PAUSE FOR A BREATH]"

    /// The script's text (what was spoken, the paragraphs apart, the direction between
    /// them) and its words.
    package let text: String
    package let markup: ReadingMarkup
    package let script: ScriptWords
    /// (time in the audio, script word) of every spoken word, in order.
    package let truth: [(time: Double, word: Int)]
    /// When the pause begins and when the second read starts.
    package let pauseStart: Double
    package let secondStart: Double

    package var rate: Double { Double(SpeechRecognizer.sampleRate) }
    package var duration: Double { Double(audio.count) / rate }

    /// The passage from the installed GPL text.
    package static func gpl() throws(FollowPassageError) -> FollowPassage {
        guard let data = FileManager.default.contents(atPath: license) else { throw .textMissing(path: license) }
        let parts = String(decoding: data, as: UTF8.self).components(separatedBy: "Preamble")
        guard parts.count > 1 else { throw .textMissing(path: license + " (no Preamble)") }
        let paragraphs = parts[1].components(separatedBy: "\n\n")
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .filter { !$0.isEmpty }
        guard paragraphs.count > 2 else { throw .textMissing(path: license + " (too short)") }
        let first: SpeechClip, second: SpeechClip
        do throws(SpeechError) {
            first = try SpeechSynthesizer.shared.synthesize(paragraphs[1], rate: 165)
            second = try SpeechSynthesizer.shared.synthesize(paragraphs[2], rate: 230)
        } catch {
            throw .speech(error)
        }
        do throws(ResamplerError) {
            return FollowPassage(first: try first.resampled(to: SpeechRecognizer.sampleRate),
                                 second: try second.resampled(to: SpeechRecognizer.sampleRate))
        } catch {
            throw .resampling(error)
        }
    }

    private init(first: SpeechClip, second: SpeechClip) {
        let rate = Double(SpeechRecognizer.sampleRate)
        audio = first.samples + [Int16](repeating: 0, count: Int(Self.pause * rate)) + second.samples
        pauseStart = first.duration
        secondStart = first.duration + Self.pause
        // The script is what was spoken, and a direction that is not.
        let read = ScriptLibrary.readingTextAndMarkers(first.text + "\n\n" + Self.direction + "\n\n" + second.text,
                                                       format: .plainText, lineBreaks: .keep)
        text = read.text
        markup = read.markup
        let script = ScriptWords(text, markup: read.markup)
        self.script = script
        let secondOffset = first.text.unicodeScalars.count + 2 + Self.direction.unicodeScalars.count + 2
        func scriptWord(atScalar offset: Int) -> Int {
            script.words.last { $0.scalarOffset <= offset }?.index ?? 0
        }
        let start = secondStart
        truth = first.words.map { ($0.time(sampleRate: first.sampleRate), scriptWord(atScalar: $0.characterOffset - 1)) }
            + second.words.map { (start + $0.time(sampleRate: second.sampleRate),
                                  scriptWord(atScalar: secondOffset + $0.characterOffset - 1)) }
    }

    package func spokenWord(at t: Double) -> Int { truth.last { $0.time <= t }?.word ?? 0 }

    /// Each word's offset in the text: `wordsPerLine` to a line, evenly across it.
    package var wordOffsets: [Double] {
        script.words.indices.map { i in
            Double(i / Self.wordsPerLine) * Self.lineHeight
                + Double(i % Self.wordsPerLine) / Double(Self.wordsPerLine) * Self.lineHeight
        }
    }

    /// Hears the passage through the recogniser in 100 ms chunks (as the microphone
    /// delivers it); the aligner and the follow driver steer a real engine. The clock
    /// is the audio's own; the recogniser's compute time is its thread's CPU time.
    package func follow(folder: URL, trace: ((String) -> Void)? = nil) throws(FollowPassageError) -> FollowPassageRun {
        let recognizer: SpeechRecognizer
        do throws(ListeningError) {
            let model = try ScriptLanguageModel(sentences: script.sentences)
            let dictionary = try PronouncingDictionary.installed(words: model.vocabulary)
            recognizer = try SpeechRecognizer(model: model, dictionary: dictionary, folder: folder)
        } catch {
            throw .listening(error)
        }
        let offsets = wordOffsets
        var engine = PrompterEngine(speed: 60)
        engine.open(at: 0, maxOffset: offsets.last ?? 0)
        engine.play(at: 0)
        var driver = FollowDriver(wordOffsets: offsets, lineHeight: Self.lineHeight, fixedSpeed: 60)
        var aligner = WordAligner(tokens: script.tokens)
        var utterances: [Int: [HeardWord]] = [:]
        var run = FollowPassageRun(audioSeconds: duration)
        let chunk = SpeechRecognizer.sampleRate / 10
        var start = 0
        while start < audio.count {
            let piece = Array(audio[start..<min(audio.count, start + chunk)])
            start += piece.count
            // The thread's CPU time, not the wall clock: the machine is shared, and the
            // real-time factor is about the recogniser's work.
            let began = Self.threadCPUTime()
            let hearing = recognizer.process(piece)
            run.computing += Self.threadCPUTime() - began
            let t = Double(start) / rate
            if let hearing {
                utterances[hearing.utterance] = hearing.words
                let heard = utterances.keys.sorted().flatMap { utterances[$0] ?? [] }
                if let last = heard.last, let position = aligner.update(heard: heard.map(\.word), tokenWord: script.tokenWord) {
                    driver.heard(word: position.word, confidence: position.confidence, heardAt: last.end)
                    trace?("t=\(t) heard \(heard.suffix(6).map(\.word)) -> word \(position.word) "
                           + "conf \(position.confidence) truth \(spokenWord(at: t))")
                }
            }
            driver.drive(&engine, at: t)
            let offset = engine.offset(at: t)
            run.readingAt.append((t, offsets.lastIndex { $0 <= offset + 0.5 } ?? 0, offset))
            if start % SpeechRecognizer.sampleRate == 0 || start == audio.count {
                run.seconds.append((t, Int(offset / Self.lineHeight), spokenWord(at: t) / Self.wordsPerLine))
            }
        }
        // Latency: from a word's start to the reading line reaching it.
        for (time, word) in truth {
            if let reached = run.readingAt.first(where: { $0.t >= time && $0.word >= word }) {
                run.latencies.append(reached.t - time)
            }
        }
        run.latencies.sort()
        return run
    }

    package static func threadCPUTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// What one hearing of the passage measured.
package struct FollowPassageRun {
    package let audioSeconds: Double
    /// Recogniser CPU seconds.
    package var computing = 0.0
    /// At every whole second: the reading line and the line of the word being spoken.
    package var seconds: [(t: Double, line: Int, spokenLine: Int)] = []
    /// At every chunk: the word at the reading line and the engine's offset.
    package var readingAt: [(t: Double, word: Int, offset: Double)] = []
    /// Seconds from each spoken word to the reading line reaching it, sorted.
    package var latencies: [Double] = []

    package var misses: [(t: Double, line: Int, spokenLine: Int)] { seconds.filter { abs($0.line - $0.spokenLine) > 2 } }
    /// Share of seconds the reading line is within 2 lines of the spoken word.
    package var accuracy: Double { seconds.isEmpty ? 0 : Double(seconds.count - misses.count) / Double(seconds.count) }
    package var latencyMedian: Double { latencies.isEmpty ? .infinity : latencies[latencies.count / 2] }
    /// Recogniser CPU seconds per second of audio.
    package var realTimeFactor: Double { computing / audioSeconds }

    /// The engine's offset at `t` (the engine keeps only seconds of history: offsets are read as the run goes).
    package func offset(at t: Double) -> Double { readingAt.first { $0.t >= t - 0.001 }?.offset ?? .nan }
}
