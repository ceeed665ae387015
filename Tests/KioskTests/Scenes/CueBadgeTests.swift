import Foundation
import Media
import Render
import Testing
@testable import Kiosk
@testable import Stage

/// In the game the cue letter is the instruction itself: over the mirrored camera
/// preview it must still read upright, and S and Z must differ only in the letter.
/// S and Z are the letters whose mirror images are other shapes, so a badge drawn
/// mirrored cannot match the upright letter by accident.
@Suite struct CueBadgeTests {
    static let display = PixelSize(width: 480, height: 270)

    /// The badge's square, as CueBadge centres it.
    static var badge: PixelRect {
        let side = max(48, min(display.width, display.height) * 2 / 5)
        return PixelRect(x: (display.width - side) / 2, y: (display.height - side) / 2, width: side, height: side)
    }

    /// Framing mode as the kiosk draws it: a mirrored preview (a ramp, bright on the
    /// left after mirroring) with the cue over it.
    static func frame(cue: Character, painter: GlyphPainter) throws -> Canvas {
        let w = display.width, h = display.height
        let preview = try Canvas(size: display)
        for y in 0..<h {
            for x in 0..<w {
                let v = UInt32((w - 1 - x) * 255 / (w - 1))
                preview.pixels[y * w + x] = (v << 16) | (UInt32(y * 255 / (h - 1)) << 8) | (255 - v)
            }
        }
        let canvas = try Canvas(size: display)
        Compositor().compose(OuterCameraScene.layers(display: display, preview: preview, message: nil,
                                                     overlay: CameraOverlay(cue: cue), painter: painter),
                             into: canvas)
        return canvas
    }

    /// The letter on its own, drawn as any label is (ink on the badge's fill), upright.
    static func uprightLetter(_ letter: Character, size: Int, painter: GlyphPainter) throws -> Canvas {
        let canvas = try Canvas(size: PixelSize(width: size, height: size))
        let style = TextStyle(fontFamily: "Noto Sans", fontSize: Double(badge.width) * 0.62, lineSpacing: 1.0)
        Compositor().compose([.fill(PixelRect(size: canvas.size), CueBadge.fill), .label(Label(String(letter), style: style, x: size / 8, y: size / 8,
                                           color: CueBadge.ink, painter: painter))], into: canvas)
        return canvas
    }

    /// The ink pixels in `rect` (dark ones; with `light`, light ones, the recording
    /// style's white letter), cropped to their bounding box, as rows of Bools.
    static func inkMask(_ canvas: Canvas, in rect: PixelRect, light: Bool = false) -> [[Bool]] {
        var rows: [[Bool]] = []
        for y in rect.y..<rect.maxY {
            rows.append((rect.x..<rect.maxX).map { x in
                let c = canvas.color(x: x, y: y)
                let sum = Int(c.red) + Int(c.green) + Int(c.blue)
                return light ? sum > 3 * 128 : sum < 3 * 110
            })
        }
        let used = rows.indices.filter { rows[$0].contains(true) }
        let columns = (0..<rect.width).filter { x in rows.contains { $0[x] } }
        guard let top = used.first, let bottom = used.last, let left = columns.first, let right = columns.last else { return [] }
        return rows[top...bottom].map { Array($0[left...right]) }
    }

    static func mismatch(_ a: [[Bool]], _ b: [[Bool]]) -> Double {
        guard a.count == b.count, a.first?.count == b.first?.count, let width = a.first?.count, width > 0 else { return 1 }
        var differ = 0, ink = 0
        for (ra, rb) in zip(a, b) {
            for (pa, pb) in zip(ra, rb) {
                if pa != pb { differ += 1 }
                if pa || pb { ink += 1 }
            }
        }
        return Double(differ) / Double(max(1, ink))
    }

    /// The badge's letter matches the upright letter and not its mirror image.
    @Test(arguments: ["S", "Z"] as [Character])
    func letterIsUprightOverTheMirroredPreview(letter: Character) throws {
        let painter = GlyphPainter(fonts: try FontLibrary())
        let frame = try Self.frame(cue: letter, painter: painter)
        // The letter's inside of the badge: clear of the white border and the corners.
        let b = Self.badge
        let inset = b.width / 8
        let shown = Self.inkMask(frame, in: PixelRect(x: b.x + inset, y: b.y + inset,
                                                      width: b.width - 2 * inset, height: b.height - 2 * inset))
        let reference = Self.inkMask(try Self.uprightLetter(letter, size: b.width * 2, painter: painter),
                                     in: PixelRect(x: 0, y: 0, width: b.width * 2, height: b.width * 2))
        let mirrored = reference.map { Array($0.reversed()) }
        #expect(!shown.isEmpty, "no letter in the badge")
        let upright = Self.mismatch(shown, reference), flipped = Self.mismatch(shown, mirrored)
        #expect(upright < 0.05, "the badge's \(letter) differs from the upright letter in \(Int(upright * 100)) % of its ink")
        #expect(flipped > 0.3, "the badge's \(letter) also matches its mirror image (\(Int(flipped * 100)) % differ)")
    }

    /// S and Z badges: the same border, fill and ink, nothing else between them but the letter.
    @Test func sAndZBadgesHaveTheSameColours() throws {
        let painter = GlyphPainter(fonts: try FontLibrary())
        var palettes: [Set<UInt32>] = []
        for letter in ["S", "Z"] as [Character] {
            let frame = try Self.frame(cue: letter, painter: painter)
            var counts: [UInt32: Int] = [:]
            let b = Self.badge
            for y in b.y..<b.maxY {
                for x in b.x..<b.maxX { counts[frame.pixel(x: x, y: y) & 0xff_ffff, default: 0] += 1 }
            }
            // Antialiased edges blend into many colours, each on a few pixels; the
            // badge's own colours cover whole areas.
            palettes.append(Set(counts.filter { $0.value >= 40 }.keys))
        }
        let expected: Set<UInt32> = [CueBadge.border, CueBadge.fill, CueBadge.ink].map {
            UInt32($0.red) << 16 | UInt32($0.green) << 8 | UInt32($0.blue)
        }.reduce(into: []) { $0.insert($1) }
        #expect(palettes[0] == expected, "S badge colours \(palettes[0].map { String($0, radix: 16) })")
        #expect(palettes[1] == expected, "Z badge colours \(palettes[1].map { String($0, radix: 16) })")
    }

    /// The export burns in the same badge the participant saw, in its dark style: the
    /// same place and letter shape, transparent outside its rounded corners.
    @Test(arguments: ["S", "Z"] as [Character])
    func theExportsBadgeIsTheLiveBadgeInTheRecordingStyle(letter: Character) throws {
        let painter = GlyphPainter(fonts: try FontLibrary())
        let size = PixelSize(width: 320, height: 240)
        let picture = try #require(CueBadge.picture(letter: letter, pictureWidth: size.width, pictureHeight: size.height,
                                                    painter: painter))
        let box = CueBadge.box(in: PixelRect(size: size))
        #expect(picture.x == box.x && picture.y == box.y && picture.width == box.width && picture.height == box.height)
        func rgba(_ x: Int, _ y: Int) -> [UInt8] { Array(picture.rgba[(y * picture.width + x) * 4 ..< (y * picture.width + x) * 4 + 4]) }
        #expect(rgba(0, 0)[3] == 0, "the corner outside the rounding shows the video")
        let fill = CueBadge.Style.recording.fill
        #expect(rgba(picture.width / 8, picture.height / 2) == [fill.red, fill.green, fill.blue, 255])
        // The letter: white where the live badge's ink is, at the same size and place.
        let live = try Canvas(size: size)
        Compositor().compose(CueBadge.layers(letter: letter, in: PixelRect(size: size), painter: painter), into: live)
        let inset = box.width / 8
        let span = inset..<(box.width - inset)
        func mismatch(mirrored: Bool) -> (differ: Int, ink: Int) {
            var differ = 0, ink = 0
            for y in span {
                for x in span {
                    // Each side's ink is what is nearer its ink than its fill.
                    let c = live.color(x: box.x + (mirrored ? box.width - 1 - x : x), y: box.y + y)
                    let liveInk = Int(c.red) + Int(c.green) + Int(c.blue) < Self.midpoint(.live)
                    let p = rgba(x, y)
                    let exportInk = Int(p[0]) + Int(p[1]) + Int(p[2]) > Self.midpoint(.recording)
                    if liveInk != exportInk { differ += 1 }
                    if liveInk || exportInk { ink += 1 }
                }
            }
            return (differ, ink)
        }
        let same = mismatch(mirrored: false), flipped = mismatch(mirrored: true)
        #expect(same.ink > 100, "no letter")
        // Antialiased edges differ between the styles' colours; a mirrored letter differs in its strokes.
        #expect(Double(same.differ) / Double(same.ink) < 0.1, "\(same.differ) of \(same.ink) letter pixels differ from the live badge's")
        #expect(Double(flipped.differ) / Double(flipped.ink) > 0.3, "the export's letter also matches the mirrored live one")
    }

    /// The host's replay draws the badge the export burns in: over the same picture, the
    /// replay's frame and the picture with the export's badge laid on it are the same
    /// pixels, and another letter's are not.
    @Test func theReplaysBadgeIsTheExportsPixelForPixel() throws {
        let painter = GlyphPainter(fonts: try FontLibrary())
        let size = PixelSize(width: 320, height: 240)
        // A picture with detail under the whole badge: luma rising to the right and down.
        var bytes = [UInt8](repeating: 128, count: size.width * size.height * 3 / 2)
        for y in 0..<size.height {
            for x in 0..<size.width { bytes[y * size.width + x] = UInt8(16 + (x + y) * 200 / (size.width + size.height)) }
        }
        let picture = ReplayPicture(time: 0.6, index: 18, width: size.width, height: size.height,
                                    bytesPerLine: size.width, bytes: bytes)
        // Placed off the display's corner, as the console places it.
        let place = PixelRect(x: 24, y: 16, width: size.width, height: size.height)
        func frame(cue: Character?) throws -> Canvas {
            let canvas = try Canvas(size: PixelSize(width: 368, height: 272))
            Compositor().compose(ReplayPictureCanvas().layers(picture, of: "clip", in: place, cue: cue, painter: painter),
                                 into: canvas)
            return canvas
        }
        let replayed = try frame(cue: "S")
        let exported = try frame(cue: nil)
        let badge = try #require(CueBadge.picture(letter: "S", pictureWidth: size.width, pictureHeight: size.height,
                                                  painter: painter))
        for y in 0..<badge.height {
            for x in 0..<badge.width where badge.rgba[(y * badge.width + x) * 4 + 3] == 255 {
                let p = (y * badge.width + x) * 4
                let rgb = UInt32(badge.rgba[p]) << 16 | UInt32(badge.rgba[p + 1]) << 8 | UInt32(badge.rgba[p + 2])
                exported.pixels[(place.y + badge.y + y) * exported.width + place.x + badge.x + x] = 0xff00_0000 | rgb
            }
        }
        let differing = zip(replayed.pixels, exported.pixels).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) pixels of the replay's badge differ from the export's")
        let other = try frame(cue: "Z")
        #expect(zip(other.pixels, exported.pixels).filter { $0 != $1 }.count > 500, "a Z badge matches the S export")
    }

    /// Half way between a style's ink and its fill, as a sum of the three channels.
    static func midpoint(_ style: CueBadge.Style) -> Int {
        func sum(_ c: Color) -> Int { Int(c.red) + Int(c.green) + Int(c.blue) }
        return (sum(style.ink) + sum(style.fill)) / 2
    }
}
