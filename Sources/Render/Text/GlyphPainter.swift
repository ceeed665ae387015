import CFreeType
import CPixman

/// Draws laid-out lines into pixman images, caching each glyph's rasterized mask.
///
/// Outline glyphs become A8 coverage masks composited OVER the destination through a
/// solid colour; colour emoji (CBDT strikes) become premultiplied ARGB images, scaled
/// once from the strike to the text size. Glyphs are cached per (typeface, glyph,
/// quarter-pixel x phase); the cache is dropped whole when it passes its byte limit,
/// which keeps memory bounded for CJK-sized glyph sets without bookkeeping per glyph.
///
/// Not thread-safe: a painter belongs to the rendering thread.
public final class GlyphPainter {
    private struct Key: Hashable {
        let typeface: UInt16
        let glyph: UInt32
        let phase: UInt8
        /// 48ths of a pixel the outline is moved down (ChunkedTextBlock's row phases).
        let rowPhase: UInt8
    }

    private struct Mask {
        let image: GlyphImage?
        let left: Int32
        let top: Int32
        let isColor: Bool
    }

    public let fonts: FontLibrary
    public let cacheLimitBytes: Int
    private var cache: [Key: Mask] = [:]
    private var cachedBytes = 0
    /// Solid sources by colour: the text's, and a direction's when a line has one.
    private var solids: [UInt32: GlyphImage] = [:]
    private static let subpixelPhases = 4
    private static let rowFractions = ChunkedTextBlock.rowFractions

    public init(fonts: FontLibrary, cacheLimitBytes: Int = 32 << 20) {
        self.fonts = fonts
        self.cacheLimitBytes = cacheLimitBytes
    }

    public var cacheBytes: Int { cachedBytes }

    /// Draws `line` with the column's left edge at `originX` and the line's top at
    /// `originY` in `image` (a pixman_image_t*, e.g. XRGB8888 or ARGB8888), moved down
    /// by `rowFraction` 48ths of a pixel: the glyphs are rasterized from outlines
    /// moved that far, so the text is as crisp at every phase as at none.
    ///
    /// With `accents`, a direction's glyphs take the direction colour and highlighted
    /// stretches are filled with the highlight colour behind the glyphs; without, all
    /// is drawn in `color` (labels, which have no marks).
    public func draw(line: LaidOutLine, into image: OpaquePointer, originX: Int, originY: Int,
                     rowFraction: Int = 0, color: (r: UInt8, g: UInt8, b: UInt8), alpha: UInt8 = 255,
                     accents: TextAccents? = nil) {
        guard !line.glyphs.isEmpty, let source = solidFill(color, alpha) else { return }
        let destWidth = Int(pixman_image_get_width(image)), destHeight = Int(pixman_image_get_height(image))
        let baseline = Double(originY) + line.baseline
        var direction = source
        if let accents {
            if !line.highlights.isEmpty { fillHighlights(of: line, into: image, originX: originX, originY: originY,
                                                         color: accents.highlight) }
            let ink = accents.direction
            direction = solidFill((ink.red, ink.green, ink.blue), alpha) ?? source
        }
        for glyph in line.glyphs {
            let x = Double(originX) + Double(glyph.x)
            let whole = x.rounded(.down)
            let phase = UInt8(min(Int((x - whole) * Double(Self.subpixelPhases)), Self.subpixelPhases - 1))
            let rowPhase = UInt8(min(max(rowFraction, 0), Self.rowFractions - 1))
            let mask = self.mask(Key(typeface: glyph.typeface, glyph: glyph.glyphID, phase: phase, rowPhase: rowPhase))
            guard let glyphImage = mask.image else { continue }
            let dx = Int(whole) + Int(mask.left)
            let dy = Int((baseline + Double(glyph.yOffset)).rounded()) - Int(mask.top)
            if dx >= destWidth || dy >= destHeight || dx + Int(glyphImage.width) <= 0
                || dy + Int(glyphImage.height) <= 0 { continue }
            if mask.isColor {
                pixman_image_composite32(PIXMAN_OP_OVER, glyphImage.handle, nil, image, 0, 0, 0, 0,
                                         Int32(dx), Int32(dy), glyphImage.width, glyphImage.height)
            } else {
                let ink = glyph.ink == PositionedGlyph.Ink.direction ? direction : source
                pixman_image_composite32(PIXMAN_OP_OVER, ink.handle, glyphImage.handle, image, 0, 0, 0, 0,
                                         Int32(dx), Int32(dy), glyphImage.width, glyphImage.height)
            }
        }
    }

    /// The highlight boxes behind a line's marked words: the line's box less a twelfth
    /// above and below, so highlighted lines one under the other stay apart.
    private func fillHighlights(of line: LaidOutLine, into image: OpaquePointer, originX: Int, originY: Int,
                                color: Color) {
        let inset = Int((line.height / 12).rounded())
        let top = originY + inset, bottom = originY + Int(line.height.rounded()) - inset
        for run in line.highlights {
            let left = originX + Int(Double(run.x).rounded(.down))
            let right = originX + Int(Double(run.x + run.width).rounded(.up))
            PixmanDraw.fill(image, rect: PixelRect(x: left, y: top, width: right - left, height: bottom - top),
                            color: color)
        }
    }

    private func solidFill(_ color: (r: UInt8, g: UInt8, b: UInt8), _ alpha: UInt8) -> GlyphImage? {
        let key = UInt32(color.r) << 24 | UInt32(color.g) << 16 | UInt32(color.b) << 8 | UInt32(alpha)
        if let image = solids[key] { return image }
        guard let image = GlyphImage(solid: color.r, color.g, color.b, alpha: alpha) else { return nil }
        if solids.count >= 8 { solids.removeAll() }
        solids[key] = image
        return image
    }

    private func mask(_ key: Key) -> Mask {
        if let cached = cache[key] { return cached }
        let mask = rasterize(key)
        let bytes = mask.image?.bytes ?? 0
        if cachedBytes + bytes > cacheLimitBytes {
            cache.removeAll(keepingCapacity: true)
            cachedBytes = 0
        }
        cache[key] = mask
        cachedBytes += bytes
        return mask
    }

    private func rasterize(_ key: Key) -> Mask {
        guard let typeface = fonts.existingTypeface(key.typeface) else {
            return Mask(image: nil, left: 0, top: 0, isColor: false)
        }
        let face = typeface.face
        var loadFlags = Int32(FT_LOAD_NO_HINTING)
        if typeface.isColorBitmap { loadFlags |= Int32(FT_LOAD_COLOR) }
        // The sub-pixel phase shifts the outline before it is rendered.
        // So does the row phase (FreeType's y grows up, the display's down).
        var delta = FT_Vector(x: FT_Pos(Int(key.phase) * 64 / Self.subpixelPhases), y: FT_Pos(-((Int(key.rowPhase) * 64 + Self.rowFractions / 2) / Self.rowFractions)))
        FT_Set_Transform(face, nil, &delta)
        defer { FT_Set_Transform(face, nil, nil) }
        let empty = Mask(image: nil, left: 0, top: 0, isColor: false)
        guard key.glyph < UInt32(face.pointee.num_glyphs), FT_Load_Glyph(face, key.glyph, loadFlags) == 0, let slot = face.pointee.glyph else { return empty }
        // A no-op for glyphs that already are bitmaps (colour strikes).
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return empty }
        let bitmap = slot.pointee.bitmap
        let left = slot.pointee.bitmap_left, top = slot.pointee.bitmap_top
        switch Int32(bitmap.pixel_mode) {
        case Int32(FT_PIXEL_MODE_BGRA.rawValue):
            guard let strike = copy(bitmap, format: PIXMAN_a8r8g8b8, bytesPerPixel: 4) else { return empty }
            return scaled(strike, left: left, top: top, by: typeface.bitmapScale)
        case Int32(FT_PIXEL_MODE_GRAY.rawValue):
            guard let image = copy(bitmap, format: PIXMAN_a8, bytesPerPixel: 1) else { return empty }
            return Mask(image: image, left: left, top: top, isColor: false)
        default:
            return Mask(image: monoToGray(bitmap), left: left, top: top, isColor: false)
        }
    }

    private func copy(_ bitmap: FT_Bitmap, format: pixman_format_code_t, bytesPerPixel: Int) -> GlyphImage? {
        guard let buffer = bitmap.buffer,
              let image = GlyphImage(format: format, width: Int(bitmap.width), height: Int(bitmap.rows)) else {
            return nil
        }
        let rowBytes = Int(bitmap.width) * bytesPerPixel
        for y in 0..<Int(bitmap.rows) {
            guard let row = image.row(y) else { return nil }
            row.copyMemory(from: buffer + y * Int(bitmap.pitch), byteCount: rowBytes)
        }
        return image
    }

    /// 1-bit bitmaps (some bitmap-only fonts) expanded to full coverage bytes.
    private func monoToGray(_ bitmap: FT_Bitmap) -> GlyphImage? {
        guard let buffer = bitmap.buffer,
              let image = GlyphImage(format: PIXMAN_a8, width: Int(bitmap.width), height: Int(bitmap.rows)) else {
            return nil
        }
        for y in 0..<Int(bitmap.rows) {
            guard let row = image.row(y)?.assumingMemoryBound(to: UInt8.self) else { return nil }
            let source = buffer + y * Int(bitmap.pitch)
            for x in 0..<Int(bitmap.width) {
                row[x] = source[x >> 3] & (0x80 >> UInt8(x & 7)) != 0 ? 255 : 0
            }
        }
        return image
    }

    /// A colour strike (e.g. 136 px emoji) scaled to the text size with a bilinear
    /// filter, once, when the glyph enters the cache.
    private func scaled(_ strike: GlyphImage, left: Int32, top: Int32, by scale: Double) -> Mask {
        guard abs(scale - 1) > 0.001 else { return Mask(image: strike, left: left, top: top, isColor: true) }
        let width = max(1, Int((Double(strike.width) * scale).rounded()))
        let height = max(1, Int((Double(strike.height) * scale).rounded()))
        guard let target = GlyphImage(format: PIXMAN_a8r8g8b8, width: width, height: height) else {
            return Mask(image: nil, left: 0, top: 0, isColor: true)
        }
        var transform = pixman_transform()
        let inverse = pixman_fixed_t((65536 / scale).rounded())
        pixman_transform_init_scale(&transform, inverse, inverse)
        pixman_image_set_transform(strike.handle, &transform)
        pixman_image_set_filter(strike.handle, PIXMAN_FILTER_BILINEAR, nil, 0)
        pixman_image_composite32(PIXMAN_OP_SRC, strike.handle, nil, target.handle, 0, 0, 0, 0, 0, 0,
                                 Int32(width), Int32(height))
        return Mask(image: target, left: Int32((Double(left) * scale).rounded()),
                    top: Int32((Double(top) * scale).rounded()), isColor: true)
    }
}
