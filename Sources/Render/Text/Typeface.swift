import CFreeType
import CHarfBuzz

/// One font file at one pixel size: the FT_Face that rasterizes and the hb_font_t
/// that shapes, kept together because HarfBuzz reads metrics through the FT_Face.
///
/// A face holds one active size, so each (file, index, size) gets its own Typeface;
/// `FontLibrary` caches them and hands out their `id`.
public final class Typeface {
    /// Index in the owning `FontLibrary`; what `PositionedGlyph.typeface` refers to.
    public let id: UInt16
    public let familyName: String
    public let path: String
    public let pixelSize: Double
    /// Colour bitmap fonts (Noto Color Emoji, CBDT) only come in fixed strikes; the
    /// strike is scaled by this factor to the requested size. 1 for outline fonts.
    public let bitmapScale: Double
    public let isColorBitmap: Bool
    /// Line metrics in pixels at this size (positive ascent and descent).
    public let ascent: Double
    public let descent: Double
    public let lineGap: Double

    let face: FT_Face
    let hbFont: OpaquePointer
    private let library: FreeTypeLibrary

    init(id: UInt16, library: FreeTypeLibrary, path: String, index: Int, family: String,
         pixelSize: Double) throws(TextError) {
        var newFace: FT_Face?
        let error = FT_New_Face(library.handle, path, index, &newFace)
        guard error == 0, let newFace else { throw .fontFileUnreadable(path: path, code: error) }
        self.id = id
        self.library = library
        self.path = path
        self.familyName = family
        self.pixelSize = pixelSize
        face = newFace

        let flags = newFace.pointee.face_flags
        let scalable = flags & FT_FACE_FLAG_SCALABLE != 0
        if !scalable && flags & FT_FACE_FLAG_FIXED_SIZES != 0 && newFace.pointee.num_fixed_sizes > 0 {
            let strike = Typeface.bestStrike(of: newFace, for: pixelSize)
            FT_Select_Size(newFace, strike.index)
            bitmapScale = pixelSize / strike.ppem
            isColorBitmap = true
        } else {
            FT_Set_Char_Size(newFace, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72)
            bitmapScale = 1
            isColorBitmap = false
        }
        let metrics = newFace.pointee.size.pointee.metrics
        ascent = Double(metrics.ascender) / 64 * bitmapScale
        descent = Double(-metrics.descender) / 64 * bitmapScale
        let height = Double(metrics.height) / 64 * bitmapScale
        lineGap = max(0, height - ascent - descent)

        // The hb_font takes its own reference on the face; its size follows the FT
        // size set above, and hb_ft_font_changed tells it so. (Switching to
        // hb_ot_font_set_funcs was measured: no gain, hb-ft caches advances.)
        hbFont = hb_ft_font_create_referenced(newFace)
        hb_ft_font_changed(hbFont)
    }

    deinit {
        hb_font_destroy(hbFont)
        FT_Done_Face(face)
    }

    /// True when no OpenType lookup (nor a legacy kern table) involves the space
    /// glyph: a word then shapes the same alone as inside its line, so word shapes
    /// can be cached. Noto Sans/Serif and DejaVu Sans Mono qualify; Liberation,
    /// which kerns against the space like Arial, does not.
    lazy var spaceIsContextFree: Bool = Typeface.spaceIsContextFree(hbFont)

    private static func spaceIsContextFree(_ font: OpaquePointer) -> Bool {
        guard let face = hb_font_get_face(font) else { return false }
        var space: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font, 0x20, &space) != 0 else { return false }
        func tag(_ name: String) -> hb_tag_t { name.utf8.reduce(0) { $0 << 8 | hb_tag_t($1) } }
        let kern = hb_face_reference_table(face, tag("kern"))
        defer { hb_blob_destroy(kern) }
        if hb_blob_get_length(kern) > 0 { return false }
        let lookups = hb_set_create(), before = hb_set_create(), input = hb_set_create(),
            after = hb_set_create(), output = hb_set_create()
        defer { [lookups, before, input, after, output].forEach { hb_set_destroy($0) } }
        for table in [tag("GSUB"), tag("GPOS")] {
            hb_set_clear(lookups)
            hb_ot_layout_collect_lookups(face, table, nil, nil, nil, lookups)
            var index = hb_codepoint_t.max   // HB_SET_VALUE_INVALID: start of iteration
            while hb_set_next(lookups, &index) != 0 {
                [before, input, after, output].forEach { hb_set_clear($0) }
                hb_ot_layout_lookup_collect_glyphs(face, table, index, before, input, after, output)
                if [before, input, after, output].contains(where: { hb_set_has($0, space) != 0 }) { return false }
            }
        }
        return true
    }

    /// The glyph for a character, or nil when this font lacks it (glyph 0 is .notdef).
    func glyph(for scalar: UInt32) -> UInt32? {
        let glyph = FT_Get_Char_Index(face, FT_ULong(scalar))
        return glyph == 0 ? nil : UInt32(glyph)
    }

    func covers(_ scalar: UInt32) -> Bool { FT_Get_Char_Index(face, FT_ULong(scalar)) != 0 }

    private static func bestStrike(of face: FT_Face, for pixelSize: Double) -> (index: Int32, ppem: Double) {
        // Prefer the smallest strike at least as large as wanted (downscaling looks
        // better than upscaling), else the largest there is.
        var best: (index: Int32, ppem: Double)?
        var largest: (index: Int32, ppem: Double) = (0, 1)
        for i in 0..<Int(face.pointee.num_fixed_sizes) {
            let size = face.pointee.available_sizes[i]
            let ppem = max(Double(size.y_ppem) / 64, 1)
            if ppem > largest.ppem || i == 0 { largest = (Int32(i), ppem) }
            if ppem >= pixelSize, best == nil || ppem < (best?.ppem ?? .infinity) { best = (Int32(i), ppem) }
        }
        return best ?? largest
    }
}
