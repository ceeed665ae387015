import Foundation
import Media
import Prompter
import Synchronization
import Testing

@Suite struct VoiceListenerTests {
    /// Speech at espeak-ng's 22050 Hz fed in 100 ms chunks comes back, from the
    /// listener's own thread, as the script's words with rising times.
    @Test func decodesResampledChunksOnItsThread() throws {
        let text = "When we speak of free software, we are referring to freedom, not price."
        let clip = try SpeechSynthesizer.shared.synthesize(text)
        let script = ScriptWords(clip.text)
        let model = try ScriptLanguageModel(sentences: script.sentences)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-listener-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let heard = Mutex<[Hearing]>([])
        let listener = VoiceListener(model: model, dictionary: try PronouncingDictionary.installed(words: model.vocabulary),
                                     folder: folder) { result in
            if case let .success(hearing) = result { heard.withLock { $0.append(hearing) } }
        }
        let chunk = clip.sampleRate / 10
        let audio = clip.samples + [Int16](repeating: 0, count: clip.sampleRate)
        for start in stride(from: 0, to: audio.count, by: chunk) {
            listener.feed(Array(audio[start..<min(audio.count, start + chunk)]), rate: clip.sampleRate)
        }
        listener.stop()
        let deadline = Date().addingTimeInterval(20)
        while heard.withLock({ !$0.contains(where: \.final) }), Date() < deadline { usleep(20_000) }
        let final = try #require(heard.withLock { $0.first(where: \.final) }, "no utterance ended")
        let words = final.words.map(\.word)
        // Script words heard in order (a subsequence): two thirds at least on one sentence of
        // synthesized speech (the passage test measures accuracy properly).
        var right = 0
        var rest = words[...]
        for token in script.tokens {
            if let found = rest.firstIndex(of: token) { right += 1; rest = rest[(found + 1)...] }
        }
        #expect(right >= script.tokens.count * 2 / 3, "heard \(words)")
        #expect(final.words.map(\.start) == final.words.map(\.start).sorted())
        #expect(final.words.last?.end ?? 99 <= clip.duration + 0.2)
    }
}
