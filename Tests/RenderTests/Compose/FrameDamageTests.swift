import Testing
@testable import Render

/// The compositor's partial redraw: a buffer that holds an earlier frame, given only
/// the damage, ends up with the pixels of the new frame composed whole.
@Suite struct FrameDamageTests {
    /// A small deterministic generator: the frames are the same on every run.
    private struct Dice {
        var state: UInt64
        mutating func roll(_ range: Range<Int>) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return range.lowerBound + Int((state >> 33) % UInt64(range.count))
        }
    }

    private static let size = PixelSize(width: 96, height: 64)

    /// Frames that change as consoles do, and as they do not: a rectangle moves, one
    /// changes colour, two swap places in the stack, one is added or dropped, a
    /// blended one (composed in scratch) comes and goes.
    private static func frames(count: Int) -> [[Layer]] {
        var dice = Dice(state: 38)
        var layers: [Layer] = [.fill(PixelRect(size: size), Color(rgb: 0x101820))]
        for index in 0..<6 {
            layers.append(.fill(PixelRect(x: index * 14, y: index * 8, width: 30, height: 20), Color(rgb: UInt32(0x204060 + index * 0x1f0f07))))
        }
        var frames: [[Layer]] = []
        for _ in 0..<count {
            let pick = dice.roll(1..<layers.count)
            switch dice.roll(0..<6) {
            case 0:
                layers[pick] = .fill(PixelRect(x: dice.roll(-8..<90), y: dice.roll(-8..<60), width: dice.roll(1..<40),
                                               height: dice.roll(1..<30)), Color(rgb: UInt32(dice.roll(0..<0xffffff))))
            case 1 where layers.count > 2:
                layers.swapAt(pick, pick == 1 ? 2 : pick - 1)
            case 2 where layers.count < 12:
                layers.insert(.fill(PixelRect(x: dice.roll(0..<80), y: dice.roll(0..<50), width: 20, height: 12),
                                    Color(rgb: UInt32(dice.roll(0..<0xffffff)))), at: pick)
            case 3 where layers.count > 3:
                layers.remove(at: pick)
            case 4:
                layers.append(.fill(PixelRect(x: dice.roll(0..<70), y: dice.roll(0..<40), width: 24, height: 18),
                                    Color(rgb: 0xffffff).withAlpha(UInt8(dice.roll(40..<200)))))
            default:
                // Nothing changes: the frame is drawn again (nothing should be).
                break
            }
            frames.append(layers)
            if case let .fill(_, color)? = layers.last, !color.isOpaque, dice.roll(0..<2) == 0 { layers.removeLast() }
        }
        return frames
    }

    @Test func twoBuffersDrawnOnlyWhereFramesDifferHoldTheWholeFrames() throws {
        let compositor = Compositor(), wholeCompositor = Compositor()
        let buffers = [try Canvas(size: Self.size), try Canvas(size: Self.size)]
        let whole = try Canvas(size: Self.size)
        var drawn = 0
        let frames = Self.frames(count: 400)
        for (index, layers) in frames.enumerated() {
            let buffer = buffers[index % 2]
            drawn += compositor.compose(layers, into: buffer, onlyChanges: true)
            wholeCompositor.compose(layers, into: whole)
            let differing = TestDrawing.differingPixels(buffer, whole)
            #expect(differing == 0, "frame \(index): \(differing) pixels differ from the whole frame")
            if differing > 0 { return }
        }
        // And it drew less than whole frames would.
        #expect(drawn < frames.count * Self.size.width * Self.size.height / 2)
    }

    @Test func anUnchangedFrameDrawsNothingAndAForgottenBufferIsDrawnWhole() throws {
        let compositor = Compositor()
        let canvas = try Canvas(size: Self.size)
        let layers: [Layer] = [.fill(PixelRect(size: Self.size), .black),
                               .fill(PixelRect(x: 4, y: 4, width: 10, height: 10), .white)]
        #expect(compositor.compose(layers, into: canvas, onlyChanges: true) == Self.size.width * Self.size.height)
        #expect(compositor.compose(layers, into: canvas, onlyChanges: true) == 0)
        var moved = layers
        moved[1] = .fill(PixelRect(x: 6, y: 4, width: 10, height: 10), .white)
        // The old square's place and the new one's: 12 x 10.
        #expect(compositor.compose(moved, into: canvas, onlyChanges: true) == 120)
        compositor.forgetHeldFrames()
        #expect(compositor.compose(moved, into: canvas, onlyChanges: true) == Self.size.width * Self.size.height)
    }
}
