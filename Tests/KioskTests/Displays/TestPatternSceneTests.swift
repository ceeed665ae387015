import Testing
@testable import Kiosk
@testable import Stage

@Suite struct TestPatternSceneTests {
    func withFrame(width: Int, height: Int, mustDraw: Bool, _ body: (FrameTarget) -> Void) -> [UInt32] {
        var pixels = [UInt32](repeating: 0x123456, count: width * height)
        pixels.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress {
                body(FrameTarget(width: width, height: height, stride: width * 4, pixels: base,
                                 presentationTime: 1, mustDraw: mustDraw))
            }
        }
        return pixels
    }

    @Test func pausedDrawsOnlyWhenTheBufferIsFresh() {
        let scene = TestPatternScene(paused: true)
        var changed = true
        let untouched = withFrame(width: 32, height: 32, mustDraw: false) { changed = scene.drawFrame(for: .inner, into: $0) }
        #expect(!changed)
        #expect(untouched.allSatisfy { $0 == 0x123456 })
        let drawn = withFrame(width: 32, height: 32, mustDraw: true) { changed = scene.drawFrame(for: .inner, into: $0) }
        #expect(changed)
        #expect(drawn[0] == 0xFFFFFF)
    }

    @Test func innerAndOuterPatternsDiffer() {
        let inner = withFrame(width: 64, height: 64, mustDraw: true) {
            TestPatternScene.draw(role: .inner, barPosition: 0, into: $0)
        }
        let outer = withFrame(width: 64, height: 64, mustDraw: true) {
            TestPatternScene.draw(role: .outer, barPosition: 0, into: $0)
        }
        #expect(inner != outer)
        // Inner bars are vertical: a row past the frame and bar varies along x.
        let row = 40 * 64
        #expect(Set(inner[row + 8 ..< row + 56]).count > 1)
        #expect(Set(outer[row + 8 ..< row + 56]).count == 1)
    }
}
