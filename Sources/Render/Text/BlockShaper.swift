import CHarfBuzz
import Markup

/// Splits a block of text into runs (typeface x bidi level x script) and shapes them
/// with HarfBuzz. Owns the one hb_buffer_t reused for every run.
///
/// Typeface choice per character: the primary typeface when it has the glyph, else
/// the typeface of the previous character (keeps Arabic words, CJK phrases and emoji
/// sequences in one run), else a fallback from `FontLibrary`. Marks, joiners and
/// variation selectors always stay with the character they modify.
///
/// Marked text (issue 42) has its own primary: `faces[variant]`, where the variant is
/// a scalar's strong and emphasis marks (0 plain, 1 bold, 2 italic, 3 bold italic).
final class BlockShaper {
    let fonts: FontLibrary
    let primary: Typeface
    /// The primary typeface per variant; `faces[0]` is `primary`.
    let faces: [Typeface]
    private let buffer: OpaquePointer
    private let unicode: OpaquePointer
    private var coversASCII: [[Bool]]
    /// Off only in tests that compare word-by-word shaping with whole runs.
    var usesWordCache = true
    private struct CachedWord {
        let scalars: [UInt32]
        let glyphs: [ShapedGlyph]
    }
    private var wordCache: [Int: [CachedWord]] = [:]
    private var wordCacheCount = 0
    private static let wordCacheLimit = 50_000

    init(fonts: FontLibrary, primary: Typeface, marked: [Typeface] = []) {
        self.fonts = fonts
        self.primary = primary
        faces = [primary] + marked
        buffer = hb_buffer_create()
        unicode = hb_unicode_funcs_get_default()
        coversASCII = faces.map { face in (0..<128).map { face.covers(UInt32($0)) } }
    }

    deinit { hb_buffer_destroy(buffer) }

    /// `marks` (one per scalar, nil when nothing is marked) picks each scalar's face.
    func itemize(_ text: UnsafeBufferPointer<UInt32>, levels: [UInt8]?, marks: [TextMarks]? = nil) -> [ShapingRun] {
        var runs: [ShapingRun] = []
        guard !text.isEmpty else { return runs }
        let variants = faces.count > 1 ? marks : nil
        let faceBits = TextMarks.faces.rawValue
        var currentVariant = Int((variants?[0].rawValue ?? 0) & faceBits)
        var current = ShapingRun(start: 0, end: 0, typeface: faces[currentVariant], level: levels?[0] ?? 0,
                                 script: HB_SCRIPT_COMMON)
        var currentIsPrimary = true
        for i in 0..<text.count {
            let scalar = text[i]
            let level = levels?[i] ?? 0
            let variant = variants.map { Int($0[i].rawValue & faceBits) } ?? 0
            // Fast path for ASCII continuing a primary-font run: no class references
            // touched (retain/release was a tenth of layout time).
            if i > 0 && scalar < 0x80 && currentIsPrimary && variant == currentVariant && level == current.level
                && coversASCII[variant][Int(scalar)] {
                let latin = script(of: scalar) == HB_SCRIPT_LATIN
                if !latin || current.script == HB_SCRIPT_LATIN { continue }
                if current.script == HB_SCRIPT_COMMON { current.script = HB_SCRIPT_LATIN; continue }
            }
            let base = faces[variant]
            let face = typeface(for: scalar, at: i, in: text, previous: i == 0 ? nil : current.typeface,
                                base: base, variant: variant)
            var script = self.script(of: scalar)
            let neutral = script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED
            if i > 0 && face === current.typeface && level == current.level {
                if neutral { continue }
                if current.script == HB_SCRIPT_COMMON { current.script = script; continue }
                if script == current.script { continue }
            }
            if i > 0 {
                current.end = i
                runs.append(current)
            }
            if neutral { script = HB_SCRIPT_COMMON }
            current = ShapingRun(start: i, end: i, typeface: face, level: level, script: script)
            currentIsPrimary = face === base
            currentVariant = variant
        }
        current.end = text.count
        runs.append(current)
        return runs
    }

    /// Shapes `runs` clipped to `range` of `text`, appending glyphs in logical order
    /// with clusters relative to `text`. Only `text[range]` is given to HarfBuzz as
    /// context when `isolated`, so a reshaped line does not see its neighbours.
    func shape(_ text: UnsafeBufferPointer<UInt32>, runs: [ShapingRun], range: Range<Int>,
               isolated: Bool, paragraphStart: Bool, paragraphEnd: Bool,
               into glyphs: inout [ShapedGlyph]) {
        guard let base = text.baseAddress else { return }
        let contextStart = isolated ? range.lowerBound : 0
        let contextEnd = isolated ? range.upperBound : text.count
        for run in runs {
            let start = max(run.start, range.lowerBound), end = min(run.end, range.upperBound)
            guard start < end else { continue }
            if usesWordCache && canShapeByWords(run) {
                shapeByWords(text, run: run, range: start..<end, into: &glyphs)
                continue
            }
            hb_buffer_clear_contents(buffer)
            hb_buffer_add_utf32(buffer, base + contextStart, Int32(contextEnd - contextStart),
                                UInt32(start - contextStart), Int32(end - start))
            hb_buffer_set_direction(buffer, run.level & 1 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
            hb_buffer_set_script(buffer, run.script == HB_SCRIPT_COMMON ? HB_SCRIPT_LATIN : run.script)
            var flags = HB_BUFFER_FLAG_DEFAULT.rawValue
            if paragraphStart && start == 0 { flags |= HB_BUFFER_FLAG_BOT.rawValue }
            if paragraphEnd && end == text.count { flags |= HB_BUFFER_FLAG_EOT.rawValue }
            hb_buffer_set_flags(buffer, hb_buffer_flags_t(rawValue: flags))
            hb_shape(run.typeface.hbFont, buffer, nil, 0)
            append(from: buffer, typeface: run.typeface, clusterBase: contextStart,
                   rtl: run.level & 1 == 1, into: &glyphs)
        }
    }

    private func canShapeByWords(_ run: ShapingRun) -> Bool {
        run.level & 1 == 0 && !run.typeface.isColorBitmap
            && (run.script == HB_SCRIPT_LATIN || run.script == HB_SCRIPT_COMMON
                || run.script == HB_SCRIPT_CYRILLIC || run.script == HB_SCRIPT_GREEK)
            && run.typeface.spaceIsContextFree
    }

    /// Shapes a left-to-right run word by word (split at spaces), reusing the shape
    /// of every word seen before: a script repeats most of its words, and HarfBuzz
    /// was over half of layout time. Only for fonts where nothing reaches across a
    /// space (`spaceIsContextFree`), so the result equals shaping the whole run.
    private func shapeByWords(_ text: UnsafeBufferPointer<UInt32>, run: ShapingRun, range: Range<Int>,
                              into glyphs: inout [ShapedGlyph]) {
        var i = range.lowerBound
        while i < range.upperBound {
            var j = i + 1
            if text[i] != 0x20 { while j < range.upperBound && text[j] != 0x20 { j += 1 } }
            let word = UnsafeBufferPointer(rebasing: text[i..<j])
            let shaped = wordShape(word, run: run)
            let offset = Int32(i)
            for var glyph in shaped {
                glyph.cluster += offset
                glyphs.append(glyph)
            }
            i = j
        }
    }

    private func wordShape(_ word: UnsafeBufferPointer<UInt32>, run: ShapingRun) -> [ShapedGlyph] {
        var hasher = Hasher()
        hasher.combine(run.typeface.id)
        hasher.combine(run.script.rawValue)
        for scalar in word { hasher.combine(scalar) }
        let key = hasher.finalize()
        if let bucket = wordCache[key], let hit = bucket.first(where: { $0.scalars.elementsEqual(word) }) {
            return hit.glyphs
        }
        var shaped: [ShapedGlyph] = []
        if let base = word.baseAddress {
            hb_buffer_clear_contents(buffer)
            hb_buffer_add_utf32(buffer, base, Int32(word.count), 0, Int32(word.count))
            hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
            hb_buffer_set_script(buffer, run.script == HB_SCRIPT_COMMON ? HB_SCRIPT_LATIN : run.script)
            hb_buffer_set_flags(buffer, HB_BUFFER_FLAG_DEFAULT)
            hb_shape(run.typeface.hbFont, buffer, nil, 0)
            append(from: buffer, typeface: run.typeface, clusterBase: 0, rtl: false, into: &shaped)
        }
        if wordCacheCount >= Self.wordCacheLimit {
            wordCache.removeAll(keepingCapacity: true)
            wordCacheCount = 0
        }
        wordCache[key, default: []].append(CachedWord(scalars: Array(word), glyphs: shaped))
        wordCacheCount += 1
        return shaped
    }

    private func append(from buffer: OpaquePointer, typeface: Typeface, clusterBase: Int, rtl: Bool,
                        into glyphs: inout [ShapedGlyph]) {
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return }
        let scale = Float(typeface.bitmapScale / 64)
        let first = glyphs.count
        glyphs.reserveCapacity(first + Int(count))
        for i in 0..<Int(count) {
            let flags = hb_glyph_info_get_glyph_flags(infos + i).rawValue
            glyphs.append(ShapedGlyph(
                glyphID: infos[i].codepoint,
                cluster: Int32(Int(infos[i].cluster) + clusterBase),
                advance: Float(positions[i].x_advance) * scale,
                xOffset: Float(positions[i].x_offset) * scale,
                yOffset: -Float(positions[i].y_offset) * scale,
                typeface: typeface.id,
                unsafeToBreak: flags & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0))
        }
        // HarfBuzz returns right-to-left runs in visual order; the breaker wants
        // logical order, and the line reorder turns them back.
        if rtl { glyphs[first...].reverse() }
    }

    /// `base` is the primary face of the scalar's variant: a run of another variant's
    /// face ends here like a run of another font.
    private func typeface(for scalar: UInt32, at i: Int, in text: UnsafeBufferPointer<UInt32>,
                          previous: Typeface?, base: Typeface, variant: Int) -> Typeface {
        // Another variant's face is not a script font to stay with.
        let previous = faces.count > 1 && previous.map { p in p !== base && faces.contains { $0 === p } } == true
            ? nil : previous
        if scalar < 128 && coversASCII[variant][Int(scalar)] {
            // Punctuation and spaces stay in the run of a script font (Arabic, CJK),
            // but not of the emoji font, whose space is far wider than the text's.
            if let previous, previous !== base, !previous.isColorBitmap, !isASCIILetterOrDigit(scalar),
               previous.covers(scalar) {
                return previous
            }
            return base
        }
        if let previous, modifiesPrevious(scalar) { return previous }
        let wantsEmoji = (i + 1 < text.count && text[i + 1] == 0xFE0F) || isEmojiPresentation(scalar)
        if !wantsEmoji && base.covers(scalar) {
            if let previous, previous !== base, !previous.isColorBitmap, isNeutral(scalar),
               previous.covers(scalar) { return previous }
            return base
        }
        if let previous, previous !== base, !wantsEmoji || previous.isColorBitmap, previous.covers(scalar) {
            return previous
        }
        return fonts.fallbackTypeface(for: scalar, pixelSize: base.pixelSize,
                                      family: base.familyName, preferEmoji: wantsEmoji) ?? base
    }

    /// Emoji that show in colour by default (U+1F600 and friends): monochrome text
    /// fonts such as DejaVu Sans have some of them, but a colour emoji is expected.
    private func isEmojiPresentation(_ s: UInt32) -> Bool {
        s >= 0x231A && (Unicode.Scalar(s)?.properties.isEmojiPresentation ?? false)
    }

    private func isASCIILetterOrDigit(_ s: UInt32) -> Bool {
        (s >= 0x30 && s <= 0x39) || (s >= 0x41 && s <= 0x5A) || (s >= 0x61 && s <= 0x7A)
    }

    private func isNeutral(_ scalar: UInt32) -> Bool {
        let script = self.script(of: scalar)
        return script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED
    }

    /// Characters that belong with the one before: combining marks, ZWJ/ZWNJ,
    /// variation selectors, emoji skin-tone modifiers and tags.
    private func modifiesPrevious(_ s: UInt32) -> Bool {
        switch s {
        case 0x200C, 0x200D, 0xFE00...0xFE0F, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F, 0xE0100...0xE01EF, 0x20E3:
            return true
        default:
            guard s >= 0x300 else { return false }
            let category = hb_unicode_general_category(unicode, s)
            return category == HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK
                || category == HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK
                || category == HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK
        }
    }

    private func script(of s: UInt32) -> hb_script_t {
        if s < 0x80 {
            return isASCIILetterOrDigit(s) && s > 0x39 ? HB_SCRIPT_LATIN : HB_SCRIPT_COMMON
        }
        return hb_unicode_script(unicode, s)
    }
}
