import Foundation
import Testing
@testable import Media

@Suite struct ResamplerStreamTests {
    /// A tone in 100 ms pieces comes out as one continuous stream: the pieces add up to
    /// the whole (less the filter's short delay) and no join has a jump.
    @Test func piecesJoinWithoutSteps() throws {
        let input: [Int16] = (0..<22050).map { n in
            let phase = Double(n) * 2 * Double.pi * 440 / 22050
            return Int16((sin(phase) * 10000).rounded())
        }
        let resampler = try Resampler(from: 22050, to: 16000)
        var output: [Int16] = []
        for start in stride(from: 0, to: input.count, by: 2205) {
            output += try resampler.convertPiece(Array(input[start..<min(input.count, start + 2205)]))
        }
        #expect(output.count <= 16000 && output.count >= 16000 - 64, "\(output.count) samples")
        // A 440 Hz tone of amplitude 10000 at 16 kHz moves at most ~1730 a sample; a
        // flushed join would fall towards 0 and jump.
        let steps = zip(output.dropFirst(64), output.dropFirst(65)).map { abs(Int($0) - Int($1)) }
        #expect((steps.max() ?? 0) < 2000)
    }
}
