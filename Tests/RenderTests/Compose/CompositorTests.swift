import Render
import Testing

@Suite struct CompositorTests {
    let display = PixelSize(width: 240, height: 135)

    func outerLayers(_ transform: TextTransform, paused: Bool = false) -> (ChunkedTextBlock, [Layer]) {
        let viewport = transform.textSize(forDisplay: display)
        let lines = BarLines(count: 300, lineHeight: 9, columnWidth: viewport.width - 24)
        let block = ChunkedTextBlock(lines: lines, columnWidth: viewport.width, textInset: 12,
                                     textColor: .white, background: .black, transform: transform)
        let frame = PixelRect(size: display)
        var layers: [Layer] = [
            .fill(frame, .black),
            .textBlock(block, frame: frame, viewportTop: 200),
            .readingMarker(ReadingMarker(frame: frame, transform: transform, thickness: 9, textColor: .white)),
        ]
        if paused { layers.append(.badge(.paused(in: frame, textColor: .white, background: .black))) }
        return (block, layers)
    }

    func compose(_ layers: [Layer], startingFrom junk: Color) throws -> Canvas {
        let canvas = try Canvas(size: display)
        canvas.fill(junk)
        Compositor().compose(layers, into: canvas)
        return canvas
    }

    @Test func resultNeverDependsOnWhatTheTargetHeld() throws {
        // A compositor that read the destination (OVER on the target) would let
        // the old contents through somewhere: compare two different starts.
        let (_, layers) = outerLayers(.identity, paused: true)
        let fromRed = try compose(layers, startingFrom: Color(rgb: 0xff0000))
        let fromBlue = try compose(layers, startingFrom: Color(rgb: 0x0000ff))
        #expect(fromRed.hasSamePixels(as: fromBlue))
    }

    @Test func overlaysBlendOverTheText() throws {
        let (_, layers) = outerLayers(.identity)
        let composed = try compose(layers, startingFrom: .black)
        let (_, plainLayers) = outerLayers(.identity)
        let plain = try compose(Array(plainLayers.prefix(2)), startingFrom: .black)
        // The band at one third lightens black background slightly, nothing else.
        let row = 45 + 4
        var lighter = 0
        for x in 40..<200 where composed.color(x: x, y: row).red > plain.color(x: x, y: row).red {
            lighter += 1
        }
        #expect(lighter > 100)
        #expect(composed.color(x: 120, y: 10) == plain.color(x: 120, y: 10))
        // Arrow at the left edge of the band is bright.
        #expect(composed.color(x: 0, y: 49).red > 150)
    }

    @Test func mirroredFrameIsTheHorizontalFlipOfThePlainOne() throws {
        let plain = try compose(outerLayers(.identity).1, startingFrom: .black)
        let mirrored = try compose(outerLayers(TextTransform(mirror: true)).1, startingFrom: .black)
        #expect(TestDrawing.differingPixels(mirrored, try TestDrawing.mirroredHorizontally(plain)) == 0)
    }

    @Test func halfTurnEqualsMirrorPlusFlip() throws {
        let turned = try compose(outerLayers(TextTransform(rotation: .half)).1, startingFrom: .black)
        let both = try compose(outerLayers(TextTransform(mirror: true, flip: true)).1, startingFrom: .black)
        #expect(turned.hasSamePixels(as: both))
    }

    @Test func pausedBadgeIsUprightInTheTopRightCorner() throws {
        for transform in [TextTransform.identity, TextTransform(mirror: true, rotation: .quarter)] {
            let canvas = try compose(outerLayers(transform, paused: true).1, startingFrom: .black)
            let badge = Badge.paused(in: PixelRect(size: display), textColor: .white, background: .black)
            // Inside the cut corners.
            let inner = PixelRect(x: badge.rect.x + 4, y: badge.rect.y + 4, width: badge.rect.width - 8,
                                  height: badge.rect.height - 8)
            let crop = try TestDrawing.crop(canvas, inner)
            let reference = try TestDrawing.crop(
                compose([.fill(PixelRect(size: display), .black), .badge(badge)], startingFrom: .black),
                inner)
            // The badge area holds the same symbol whatever the text transform.
            var differing = 0
            for y in 0..<crop.height {
                for x in 0..<crop.width where abs(Int(crop.color(x: x, y: y).red)
                    - Int(reference.color(x: x, y: y).red)) > 90 { differing += 1 }
            }
            #expect(differing == 0, "\(transform)")
        }
    }

    @Test func imageLayersAreCopiedAndHiddenLayersSkipped() throws {
        let image = try Canvas(width: 10, height: 10)
        image.fill(Color(rgb: 0x336699))
        let canvas = try compose([.fill(PixelRect(x: 0, y: 0, width: 50, height: 50), Color(rgb: 0x111111)),
                                  .image(image, x: 5, y: 7)], startingFrom: .black)
        #expect(canvas.color(x: 5, y: 7) == Color(rgb: 0x336699))
        #expect(canvas.color(x: 15, y: 7) == Color(rgb: 0x111111))
        #expect(canvas.color(x: 100, y: 100) == .black)
    }

    @Test(arguments: [TextTransform.identity, TextTransform(mirror: true, rotation: .quarter),
                      TextTransform(flip: true), TextTransform(rotation: .threeQuarters)])
    func bandCopiedFromTheTextBlockEqualsABlendedBand(transform: TextTransform) throws {
        let (blendedBlock, _) = outerLayers(transform)
        let (copiedBlock, _) = outerLayers(transform)
        let frame = PixelRect(size: display)
        let marker = ReadingMarker(frame: frame, transform: transform, thickness: 9, textColor: .white)
        var inText = marker
        inText.bandInText = true
        let compositor = Compositor()
        // Scroll far enough that the tinted strip is rebuilt several times, both by
        // frames that outrun it and ahead of time.
        for (step, top) in stride(from: 100, to: 400, by: 7).enumerated() {
            let blended = try compose([.textBlock(blendedBlock, frame: frame, viewportTop: top),
                                       .readingMarker(marker)], startingFrom: .black)
            let copied = try Canvas(size: display)
            compositor.compose([.textBlock(copiedBlock, frame: frame, viewportTop: top, highlight: inText.highlight),
                                .readingMarker(inText)], into: copied)
            #expect(copied.hasSamePixels(as: blended), "\(transform) at \(top)")
            if step % 3 == 0 { copiedBlock.prepareAhead(viewportRows: 135) }
        }
    }
}
