import Testing
@testable import Media

@Suite struct ResamplerTests {
    @Test func resamplingKeepsTheDuration() throws {
        for count in [1, 100, 22050, 55_864] {
            let input = (0..<count).map { Int16(truncatingIfNeeded: ($0 * 37) % 2000 - 1000) }
            let output = try Resampler(from: 22050, to: 48000).convert(input)
            let inSeconds = Double(count) / 22050
            let outSeconds = Double(output.count) / 48000
            #expect(abs(inSeconds - outSeconds) <= 0.5 / 48000, "\(count) samples")
        }
    }

    /// The filter's delay is flushed and compensated: a click lands where it was.
    @Test func aClickStaysInPlace() throws {
        var input = [Int16](repeating: 0, count: 22050)
        for i in 11025..<11035 { input[i] = 20000 }
        let output = try Resampler(from: 22050, to: 48000).convert(input)
        // The click's centre of mass, where its energy is.
        let loud = output.indices.filter { output[$0] > 5000 }
        let peak = Double(loud.reduce(0, +)) / Double(max(loud.count, 1))
        let expected = 11029.5 * 48000 / 22050
        #expect(!loud.isEmpty && abs(peak - expected) < 2, "peak at \(peak), expected \(expected)")
    }

    @Test func aSpeechClipMovesItsWordsWithIt() throws {
        let clip = try SpeechSynthesizer.shared.synthesize("One two three four.")
        let moved = try clip.resampled(to: 48000)
        #expect(abs(moved.duration - clip.duration) < 1.0 / 48000)
        #expect(moved.words.map(\.word) == clip.words.map(\.word))
        for (a, b) in zip(clip.words, moved.words) {
            #expect(abs(a.time(sampleRate: 22050) - b.time(sampleRate: 48000)) < 1.0 / 22050)
        }
    }

    @Test func unsupportedRatesAreRefused() {
        #expect(throws: ResamplerError.unsupportedRate(100)) { try Resampler(from: 100, to: 48000) }
    }
}
