import CPixman
import Testing

/// 4K quarter turns copy their frame rows with streaming stores (QuarterTurnWindow.
/// streamingBytes), a path the small frames of the other tests never take: every
/// length and alignment copies exactly the source and nothing beside it.
@Suite struct StreamingCopyTests {
    @Test func everyLengthAndAlignmentCopiesExactlyTheRun() {
        let size = 256
        let source = UnsafeMutablePointer<UInt32>.allocate(capacity: size)
        let target = UnsafeMutablePointer<UInt32>.allocate(capacity: size)
        defer {
            source.deallocate()
            target.deallocate()
        }
        for index in 0..<size { source[index] = UInt32(truncatingIfNeeded: index &* 2_654_435_761) }
        var wrong: [String] = []
        for destinationStart in 0..<5 {
            for sourceStart in 0..<3 {
                for count in [0, 1, 3, 4, 5, 15, 16, 17, 31, 64, 100, 190] {
                    target.initialize(repeating: 0xdead_beef, count: size)
                    rig_copy_streaming(target + destinationStart, source + sourceStart, count)
                    rig_streaming_done()
                    let copied = (0..<count).allSatisfy { target[destinationStart + $0] == source[sourceStart + $0] }
                    let untouched = (0..<size).allSatisfy {
                        ($0 >= destinationStart && $0 < destinationStart + count) || target[$0] == 0xdead_beef
                    }
                    if !copied || !untouched { wrong.append("\(count) from +\(sourceStart) to +\(destinationStart)") }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    /// Gray levels expanded to XRGB8888 (the AVX2 loop where the processor has it, 32-byte
    /// aligned when streaming, else SSE2), plainly and streaming: every length and
    /// alignment writes exactly the run's pixels and nothing beside them.
    @Test(arguments: [false, true])
    func grayLevelsExpandExactlyAtEveryLengthAndAlignment(streaming: Bool) {
        let size = 256
        let source = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        let target = UnsafeMutablePointer<UInt32>.allocate(capacity: size)
        defer {
            source.deallocate()
            target.deallocate()
        }
        for index in 0..<size { source[index] = UInt8(truncatingIfNeeded: index &* 151 &+ 7) }
        var wrong: [String] = []
        for destinationStart in 0..<9 {
            for sourceStart in 0..<3 {
                for count in [0, 1, 7, 15, 16, 17, 31, 32, 33, 64, 100, 190] {
                    target.initialize(repeating: 0xdead_beef, count: size)
                    rig_expand_gray_to(target + destinationStart, source + sourceStart, count, streaming ? 1 : 0)
                    rig_streaming_done()
                    let expanded = (0..<count).allSatisfy {
                        target[destinationStart + $0] == 0xff00_0000 | UInt32(source[sourceStart + $0]) &* 0x01_0101
                    }
                    let untouched = (0..<size).allSatisfy {
                        ($0 >= destinationStart && $0 < destinationStart + count) || target[$0] == 0xdead_beef
                    }
                    if !expanded || !untouched { wrong.append("\(count) from +\(sourceStart) to +\(destinationStart)") }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }
}
