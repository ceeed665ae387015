import Foundation
import Testing
@testable import Media

@Suite struct SpeechSynthesizerTests {
    let speech = SpeechSynthesizer.shared

    @Test func durationIsTheSampleCountOverTheRate() throws {
        let clip = try speech.synthesize("Touch your nose with your left hand.")
        #expect(clip.sampleRate == 22050)
        #expect(clip.samples.count > 22050 / 2)
        #expect(clip.duration == Double(clip.samples.count) / 22050)
        // Real speech, not silence: a good share of the samples are loud.
        #expect(clip.samples.filter { abs(Int($0)) > 1000 }.count > clip.samples.count / 10)
    }

    @Test func theSameTextGivesTheSameClipTwice() throws {
        let first = try speech.synthesize("Stand on one leg and count to five.")
        let second = try speech.synthesize("Stand on one leg and count to five.")
        #expect(first.duration == second.duration)
        #expect(first.samples == second.samples)
    }

    /// Without the cache espeak-ng's carried state moves an utterance by a few pitch
    /// periods: the durations agree closely, which is why the cache exists.
    @Test func uncachedSynthesesAgreeWithinAFewPitchPeriods() throws {
        let text = "Clap your hands twice and then turn around."
        let durations = try (0..<3).map { _ in try speech.synthesize(text, cached: false).duration }
        let spread = (durations.max() ?? 0) - (durations.min() ?? 0)
        #expect(spread < 0.03, "durations \(durations)")
    }

    @Test func wordTimingsAreMonotonicAndMapBackToAccentedWords() throws {
        let text = "Café naïve résumé, touch your nose."
        let clip = try speech.synthesize(text)
        #expect(clip.words.map(\.word) == ["Café", "naïve", "résumé", "touch", "your", "nose"])
        // Offsets count characters: "naïve" starts at 5 even though "Café " is 6 bytes.
        #expect(clip.words.map(\.characterOffset) == [0, 5, 11, 19, 25, 30])
        let positions = clip.words.map(\.samplePosition)
        #expect(positions == positions.sorted())
        #expect(Set(positions).count == positions.count)
        #expect(positions.allSatisfy { $0 >= 0 && $0 < clip.samples.count })
        let scalars = Array(clip.text.unicodeScalars)
        for word in clip.words {
            let slice = String(String.UnicodeScalarView(scalars[word.characterOffset..<word.characterOffset + word.characterCount]))
            #expect(slice == word.word)
        }
    }

    @Test func aHigherRateIsShorter() throws {
        let text = "Put both hands on your head and smile."
        let slow = try speech.synthesize(text, rate: 120)
        let normal = try speech.synthesize(text, rate: 175)
        let fast = try speech.synthesize(text, rate: 350)
        #expect(slow.duration > normal.duration * 1.2)
        #expect(normal.duration > fast.duration * 1.3)
    }

    @Test func anotherVoiceSpeaks() throws {
        let clip = try speech.synthesize("Guten Tag", voice: "de")
        #expect(clip.voice == "de")
        #expect(clip.duration > 0.3)
    }

    @Test func badRequestsGiveCleanErrors() throws {
        #expect(throws: SpeechError.rateOutOfRange(20)) { try speech.synthesize("hello", rate: 20) }
        #expect(throws: SpeechError.rateOutOfRange(451)) { try speech.synthesize("hello", rate: 451) }
        #expect(throws: SpeechError.nothingToSay) { try speech.synthesize("\u{0}\u{7}\u{1b}  \u{FFFD}") }
        let long = String(repeating: "word ", count: 20_000)
        #expect(throws: SpeechError.textTooLong(characters: 100_000, limit: SpeechText.maxCharacters)) {
            try speech.synthesize(long)
        }
        let unknown = Result { () throws(SpeechError) in try speech.synthesize("hello", voice: "en-usa") }
        guard case let .failure(.unknownVoice(name, suggestions)) = unknown else {
            Issue.record("an unknown voice gave \(unknown)")
            return
        }
        #expect(name == "en-usa")
        #expect(suggestions.contains("en-us"))
        // The engine is fine afterwards, with the default voice back.
        let after = try speech.synthesize("Still speaking after that.")
        #expect(after.duration > 0.5)
    }

    @Test func voicesAreListed() {
        let languages = speech.voices().map(\.language)
        #expect(languages.contains("en-us"))
        #expect(languages.contains("de"))
    }

    @Test func asynchronousSynthesisCompletes() throws {
        let done = DispatchSemaphore(value: 0)
        let box = Box()
        speech.synthesize("Jump once.", rate: 200) { result in
            box.clip = try? result.get()
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect((box.clip?.duration ?? 0) > 0.3)
    }
}

private final class Box: @unchecked Sendable { var clip: SpeechClip? }
