import Markup

/// Places one broken line of a shaped block: its glyphs in visual order from the
/// column's edge (reshaped alone where a kerning pair or a ligature spans the break),
/// the marked runs' inks and highlights, the alignment, and the words it holds.
struct LinePlacer {
    /// A shaped block of text and what its lines are placed from.
    struct Block {
        var text: UnsafeBufferPointer<UInt32>
        /// The block's first scalar in the script.
        var offset: Int
        var marks: [TextMarks]?
        var runs: [ShapingRun]
        var glyphs: [ShapedGlyph]
        var bidi: BidiParagraph?
        var rtl: Bool
        var words: WordStarts
        /// Words started before the block.
        var wordBase: Int
        var paragraphStart: Bool
        var paragraphEnd: Bool
    }

    let shaper: BlockShaper
    let alignment: TextAlignment
    let columnWidth: Double
    let lineHeight: Double
    let baselineOffset: Double

    /// The line `span` of `block`, its top at `y`.
    func line(_ span: LineSpan, of block: Block, y: Double) -> LaidOutLine {
        let glyphs = block.glyphs
        let visibleCharEnd = span.visibleEnd < glyphs.count ? Int(glyphs[span.visibleEnd].cluster) : span.charEnd
        var source = glyphs
        var range = span.glyphStart..<span.visibleEnd
        let unsafeStart = span.glyphStart > 0 && glyphs[span.glyphStart].unsafeToBreak
        let unsafeEnd = span.glyphEnd < glyphs.count && glyphs[span.glyphEnd].unsafeToBreak
        if (unsafeStart || unsafeEnd) && span.charStart < visibleCharEnd {
            // Shaping across this break would differ from shaping the line alone
            // (kerning or a ligature spans it): reshape just this line.
            var reshaped: [ShapedGlyph] = []
            shaper.shape(block.text, runs: block.runs, range: span.charStart..<visibleCharEnd, isolated: true,
                         paragraphStart: block.paragraphStart, paragraphEnd: block.paragraphEnd, into: &reshaped)
            source = reshaped
            range = 0..<reshaped.count
        }
        var placed: [PositionedGlyph] = []
        placed.reserveCapacity(range.count)
        var highlights: [HighlightRun] = []
        var pen: Float = 0
        let marks = block.marks
        func place(_ g: Int) {
            let glyph = source[g]
            var ink = PositionedGlyph.Ink.text
            if let marks, Int(glyph.cluster) < marks.count {
                let mark = marks[Int(glyph.cluster)]
                if mark.contains(.direction) { ink = PositionedGlyph.Ink.direction }
                if mark.contains(.highlight) {
                    // Glyphs are placed left to right: a run grows while they touch.
                    if let last = highlights.last, abs(last.x + last.width - pen) < 0.01 {
                        highlights[highlights.count - 1].width += glyph.advance
                    } else {
                        highlights.append(HighlightRun(x: pen, width: glyph.advance))
                    }
                }
            }
            placed.append(PositionedGlyph(typeface: glyph.typeface, glyphID: glyph.glyphID,
                                          x: pen + glyph.xOffset, yOffset: glyph.yOffset,
                                          textOffset: glyph.cluster + Int32(block.offset), ink: ink))
            pen += glyph.advance
        }
        if let bidi = block.bidi {
            for g in bidi.visualOrder(of: source, range, chars: span.charStart..<visibleCharEnd) { place(g) }
        } else {
            for g in range { place(g) }
        }
        let shift = alignmentShift(free: Float(columnWidth) - pen, rtl: block.rtl)
        if shift != 0 {
            for i in placed.indices { placed[i].x += shift }
            for i in highlights.indices { highlights[i].x += shift }
        }
        let words = block.words
        let before = block.wordBase + words.startsBefore(span.charStart)
        let through = block.wordBase + words.startsBefore(span.charEnd)
        let firstWord: Int
        if let firstInk = words.firstNonSpace(in: span.charStart..<span.charEnd) {
            firstWord = words.isStart(firstInk) ? before : max(0, before - 1)
        } else {
            firstWord = before
        }
        return LaidOutLine(y: y, height: lineHeight, baseline: baselineOffset,
                           width: Double(pen), glyphs: placed, highlights: highlights, firstWordIndex: firstWord,
                           isRTL: block.rtl, textRange: (block.offset + span.charStart)..<(block.offset + span.charEnd),
                           wordStartsBefore: before, wordStartsThrough: through)
    }

    /// How far a line moves right from the column's left edge. `left` is the side a
    /// paragraph starts on, so a right-to-left line aligned left sits at the right
    /// edge. A centred line moves by whole pixels: its glyphs keep the sub-pixel
    /// phases they would have at the edge, and draw as crisp.
    private func alignmentShift(free: Float, rtl: Bool) -> Float {
        switch (alignment, rtl) {
        case (.left, false), (.right, true): 0
        case (.left, true), (.right, false): free
        case (.centre, _): max(0, free / 2).rounded(.down)
        }
    }
}
