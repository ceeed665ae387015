import CPixman
import Testing

/// 4K quarter turns copy their frame rows with streaming stores (QuarterTurnWindow.
/// streamingBytes), a path the small frames of the other tests never take, and gray
/// windows expand their levels with vector loops: every length and alignment writes
/// exactly the run and nothing beside it.
@Suite struct StreamingCopyTests {
    static let size = 256

    /// Runs `copy(target, sourceStart, count)` at every start and length into a
    /// target of sentinels; the runs that wrote other than `expected(source index)`
    /// or touched a pixel beside them.
    static func wrongRuns(destinationStarts: Range<Int>, sourceStarts: Range<Int>, counts: [Int],
                          copy: (UnsafeMutablePointer<UInt32>, Int, Int) -> Void,
                          expected: (Int) -> UInt32) -> [String] {
        let target = UnsafeMutablePointer<UInt32>.allocate(capacity: size)
        defer { target.deallocate() }
        var wrong: [String] = []
        for destinationStart in destinationStarts {
            for sourceStart in sourceStarts {
                for count in counts {
                    target.initialize(repeating: 0xdead_beef, count: size)
                    copy(target + destinationStart, sourceStart, count)
                    rig_streaming_done()
                    let copied = (0..<count).allSatisfy { target[destinationStart + $0] == expected(sourceStart + $0) }
                    let untouched = (0..<size).allSatisfy {
                        ($0 >= destinationStart && $0 < destinationStart + count) || target[$0] == 0xdead_beef
                    }
                    if !copied || !untouched { wrong.append("\(count) from +\(sourceStart) to +\(destinationStart)") }
                }
            }
        }
        return wrong
    }

    @Test func everyLengthAndAlignmentCopiesExactlyTheRun() {
        let source = UnsafeMutablePointer<UInt32>.allocate(capacity: Self.size)
        defer { source.deallocate() }
        for index in 0..<Self.size { source[index] = UInt32(truncatingIfNeeded: index &* 2_654_435_761) }
        let wrong = Self.wrongRuns(destinationStarts: 0..<5, sourceStarts: 0..<3,
                                   counts: [0, 1, 3, 4, 5, 15, 16, 17, 31, 64, 100, 190],
                                   copy: { rig_copy_streaming($0, source + $1, $2) }, expected: { source[$0] })
        #expect(wrong.isEmpty, "\(wrong)")
    }

    /// Gray levels expanded to XRGB8888, plainly and streaming: through the loop the
    /// processor runs best (AVX2 where it has it, 32-byte aligned when streaming), and
    /// through the SSE2 loop every x86-64 processor runs.
    @Test(arguments: [false, true], [false, true])
    func grayLevelsExpandExactlyAtEveryLengthAndAlignment(streaming: Bool, baseline: Bool) {
        let source = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.size)
        defer { source.deallocate() }
        for index in 0..<Self.size { source[index] = UInt8(truncatingIfNeeded: index &* 151 &+ 7) }
        let wrong = Self.wrongRuns(destinationStarts: 0..<9, sourceStarts: 0..<3,
                                   counts: [0, 1, 7, 15, 16, 17, 31, 32, 33, 64, 100, 190],
                                   copy: {
                                       if baseline {
                                           rig_expand_gray_sse2($0, source + $1, $2, streaming ? 1 : 0)
                                       } else {
                                           rig_expand_gray_to($0, source + $1, $2, streaming ? 1 : 0)
                                       }
                                   },
                                   expected: { 0xff00_0000 | UInt32(source[$0]) &* 0x01_0101 })
        #expect(wrong.isEmpty, "\(wrong)")
    }
}
