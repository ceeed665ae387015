import Render
import Testing

@Suite struct TextTransformTests {
    @Test func sixteenDistinctCombinations() {
        #expect(TextTransform.allCombinations.count == 16)
        #expect(Set(TextTransform.allCombinations).count == 16)
    }

    @Test func rotationFromDegrees() {
        #expect(TextTransform.Rotation(degrees: 90) == .quarter)
        #expect(TextTransform.Rotation(degrees: -90) == .threeQuarters)
        #expect(TextTransform.Rotation(degrees: 45) == nil)
    }

    @Test func quarterTurnsSwapTheColumnAxis() {
        let display = PixelSize(width: 480, height: 270)
        #expect(TextTransform(rotation: .quarter).textSize(forDisplay: display) == PixelSize(width: 270, height: 480))
        #expect(TextTransform(rotation: .half).textSize(forDisplay: display) == display)
    }

    @Test func displayRectsFollowTheTransform() {
        let viewport = PixelSize(width: 100, height: 50)
        let top = PixelRect(x: 0, y: 0, width: 100, height: 10)
        #expect(TextTransform.identity.displayRect(ofText: top, viewport: viewport) == top)
        #expect(TextTransform(flip: true).displayRect(ofText: top, viewport: viewport)
            == PixelRect(x: 0, y: 40, width: 100, height: 10))
        // Clockwise quarter turn: the text's top edge is the display's right edge.
        #expect(TextTransform(rotation: .quarter).displayRect(ofText: top, viewport: viewport)
            == PixelRect(x: 40, y: 0, width: 10, height: 100))
        #expect(TextTransform(rotation: .threeQuarters).displayRect(ofText: top, viewport: viewport)
            == PixelRect(x: 0, y: 0, width: 10, height: 100))
        let corner = PixelRect(x: 0, y: 0, width: 10, height: 5)
        #expect(TextTransform(rotation: .half).displayRect(ofText: corner, viewport: viewport)
            == TextTransform(mirror: true, flip: true).displayRect(ofText: corner, viewport: viewport))
    }
}
