import CEspeak
import Foundation

/// espeak-ng itself: initialized once, voice and rate as last set. Lives only on the
/// `SpeechThread`, the one owner of the library's global state.
final class EspeakSession {
    private(set) var sampleRate = 0
    private var startFailure: String?
    private var currentVoice: String?

    init() {
        // DONT_EXIT: without it a missing data folder makes espeak-ng call exit().
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, Int32(espeakINITIALIZE_DONT_EXIT))
        if rate <= 0 {
            startFailure = "espeak_Initialize returned \(rate)"
        } else {
            sampleRate = Int(rate)
            espeak_SetSynthCallback(speechCallback)
        }
    }

    func voices() -> [SpeechVoice] {
        guard startFailure == nil, let list = espeak_ListVoices(nil) else { return [] }
        var found: [SpeechVoice] = []
        var index = 0
        while let voice = list[index] {
            index += 1
            let name = voice.pointee.name.map { String(cString: $0) } ?? ""
            let identifier = voice.pointee.identifier.map { String(cString: $0) } ?? ""
            // `languages` is a priority byte, a name, a NUL, repeated; the first is the main one.
            var language = ""
            if let languages = voice.pointee.languages, languages[0] != 0 {
                language = String(cString: languages + 1)
            }
            found.append(SpeechVoice(name: name, language: language, identifier: identifier))
        }
        return found
    }

    func synthesize(_ text: SpeechText, voice: String, rate: Int) -> Result<SpeechClip, SpeechError> {
        if let startFailure { return .failure(.engineUnavailable(startFailure)) }
        guard SpeechSynthesizer.rates.contains(rate) else { return .failure(.rateOutOfRange(rate)) }
        if voice != currentVoice {
            let status = espeak_SetVoiceByName(voice)
            guard status == EE_OK else {
                currentVoice = nil
                return .failure(.unknownVoice(voice, suggestions: suggestions(for: voice)))
            }
            currentVoice = voice
        }
        espeak_SetParameter(espeakRATE, Int32(rate), 0)
        let collector = SpeechCollector()
        let bytes = Array(text.text.utf8) + [0]
        let status = withExtendedLifetime(collector) {
            bytes.withUnsafeBufferPointer { buffer in
                espeak_Synth(buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0,
                             UInt32(espeakCHARS_UTF8), nil, Unmanaged.passUnretained(collector).toOpaque())
            }
        }
        guard status == EE_OK else { return .failure(.synthesisFailed(code: Int32(status.rawValue))) }
        let words = collector.words(in: text.text, sampleCount: collector.samples.count)
        return .success(SpeechClip(text: text.text, voice: voice, rate: rate, sampleRate: sampleRate,
                                   samples: collector.samples, words: words))
    }

    /// The installed languages nearest to a mistyped name, by edit distance.
    private func suggestions(for name: String) -> [String] {
        let lowered = Array(name.lowercased())
        let languages = Set(voices().map(\.language).filter { !$0.isEmpty })
        let ranked = languages.map { ($0, Self.distance(lowered, Array($0))) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        return ranked.prefix(3).filter { $0.1 <= max(3, lowered.count / 2) }.map(\.0)
    }

    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var row = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var previous = row[0]
            row[0] = i + 1
            for (j, y) in b.enumerated() {
                let current = row[j + 1]
                row[j + 1] = min(row[j + 1] + 1, row[j] + 1, previous + (x == y ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}

/// What one espeak_Synth call produced, gathered by the callback.
final class SpeechCollector {
    var samples: [Int16] = []
    /// WORD events: 1-based character position, length in characters, sample.
    var wordEvents: [(position: Int, length: Int, sample: Int)] = []

    func words(in text: String, sampleCount: Int) -> [WordTiming] {
        let scalars = Array(text.unicodeScalars)
        var result: [WordTiming] = []
        var lastSample = 0
        for event in wordEvents {
            let offset = event.position - 1
            guard offset >= 0, offset < scalars.count, event.length > 0 else { continue }
            let end = min(scalars.count, offset + event.length)
            var word = String.UnicodeScalarView()
            word.append(contentsOf: scalars[offset..<end])
            let sample = min(max(event.sample, lastSample), sampleCount)
            lastSample = sample
            result.append(WordTiming(word: String(word), characterOffset: offset, characterCount: end - offset,
                                     samplePosition: sample))
        }
        return result
    }
}

/// espeak-ng's synth callback: no captures; the collector comes through user_data.
/// Runs on the speech thread, inside espeak_Synth.
private func speechCallback(_ wav: UnsafeMutablePointer<Int16>?, _ count: Int32,
                            _ events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
    guard let events else { return 0 }
    guard let user = events.pointee.user_data else { return 0 }
    let collector = Unmanaged<SpeechCollector>.fromOpaque(user).takeUnretainedValue()
    var event = events
    while event.pointee.type != espeakEVENT_LIST_TERMINATED {
        if event.pointee.type == espeakEVENT_WORD {
            collector.wordEvents.append((Int(event.pointee.text_position), Int(event.pointee.length),
                                         Int(event.pointee.sample)))
        }
        event += 1
    }
    if let wav, count > 0 {
        collector.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count)))
    }
    return 0
}
