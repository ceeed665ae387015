import Markup

/// Laying out one block: shape, find break opportunities and words, break, place.
extension TextLayout {
    func layoutNextBlock() {
        guard nextParagraph < script.paragraphs.count else { return }
        let paragraph = script.paragraphs[nextParagraph]
        if nextChar < paragraph.lowerBound || paragraph.isEmpty {
            nextChar = paragraph.lowerBound
            paragraphRTL = nil
            segmentHasWordAtNext = false
        }
        if paragraph.isEmpty {
            appendBlankLine(at: paragraph.lowerBound)
            finishParagraph()
            return
        }
        let start = nextChar
        let end = script.blockEnd(from: start, paragraphEnd: paragraph.upperBound)
        let atStart = start == paragraph.lowerBound, atEnd = end == paragraph.upperBound
        script.scalars.withUnsafeBufferPointer { all in
            layoutBlock(UnsafeBufferPointer(rebasing: all[start..<end]), offset: start,
                        paragraphStart: atStart, paragraphEnd: atEnd)
        }
        if nextChar >= paragraph.upperBound { finishParagraph() }
    }

    private func finishParagraph() {
        nextParagraph += 1
        paragraphRTL = nil
        segmentHasWordAtNext = false
        if nextParagraph < script.paragraphs.count { nextChar = script.paragraphs[nextParagraph].lowerBound }
    }

    private func appendBlankLine(at offset: Int) {
        lines.append(LaidOutLine(
            y: y(ofLine: lines.count), height: lineHeight, baseline: baselineOffset, width: 0, glyphs: [],
            firstWordIndex: wordStartsBeforeNext, isRTL: false, textRange: offset..<offset,
            wordStartsBefore: wordStartsBeforeNext, wordStartsThrough: wordStartsBeforeNext))
    }

    private func layoutBlock(_ block: UnsafeBufferPointer<UInt32>, offset: Int, paragraphStart: Bool,
                             paragraphEnd: Bool) {
        let marks = markup.marks(in: offset..<(offset + block.count))
        let shaped = shapedBlock(block, offset: offset, marks: marks, paragraphStart: paragraphStart,
                                 paragraphEnd: paragraphEnd)
        let (bidi, runs, glyphs, breaks) = (shaped.bidi, shaped.runs, shaped.glyphs, shaped.canBreakAfter)
        let rtl = bidi?.isRTL ?? (paragraphRTL ?? false)
        paragraphRTL = rtl
        let words = WordStarts(block, canBreakAfter: breaks, segmentHasWord: segmentHasWordAtNext)
        let spans = LineBreaker.breakLines(glyphs: glyphs, text: block, canBreakAfter: breaks,
                                           columnWidth: Float(columnWidth))
        // The last line of a block cut from a long paragraph is not final: the next
        // block starts with its text so the line is filled as if never cut.
        let keep = !paragraphEnd && spans.count > 1 ? spans.count - 1 : spans.count
        let base = wordStartsBeforeNext
        for span in spans[0..<keep] {
            lines.append(makeLine(span, glyphs: glyphs, block: block, offset: offset, marks: marks, runs: runs,
                                  bidi: bidi, rtl: rtl, words: words, wordBase: base,
                                  paragraphStart: paragraphStart, paragraphEnd: paragraphEnd))
        }
        let resume = keep < spans.count ? spans[keep].charStart : block.count
        nextChar = offset + resume
        wordStartsBeforeNext = base + words.startsBefore(resume)
        segmentHasWordAtNext = words.segmentHasWord(before: resume)
    }

    private func shapedBlock(_ block: UnsafeBufferPointer<UInt32>, offset: Int, marks: [TextMarks]?,
                             paragraphStart: Bool, paragraphEnd: Bool) -> ShapedParagraphCache.Entry {
        let wholeParagraph = paragraphStart && paragraphEnd
        if wholeParagraph, let cached = shapingCache.entry(start: offset, end: offset + block.count) {
            return cached
        }
        let bidi = BidiParagraph.resolve(block, baseRTL: paragraphStart ? nil : paragraphRTL)
        let runs = shaper.itemize(block, levels: bidi?.levels, marks: marks)
        var glyphs: [ShapedGlyph] = []
        shaper.shape(block, runs: runs, range: 0..<block.count, isolated: false,
                     paragraphStart: paragraphStart, paragraphEnd: paragraphEnd, into: &glyphs)
        let entry = ShapedParagraphCache.Entry(end: offset + block.count, runs: runs, glyphs: glyphs, bidi: bidi,
                                               canBreakAfter: LineBreaker.opportunities(block))
        if wholeParagraph { shapingCache.store(entry, start: offset) }
        return entry
    }

    private func makeLine(_ span: LineSpan, glyphs: [ShapedGlyph], block: UnsafeBufferPointer<UInt32>,
                          offset: Int, marks: [TextMarks]?, runs: [ShapingRun], bidi: BidiParagraph?, rtl: Bool,
                          words: WordStarts, wordBase: Int, paragraphStart: Bool,
                          paragraphEnd: Bool) -> LaidOutLine {
        let visibleCharEnd = span.visibleEnd < glyphs.count ? Int(glyphs[span.visibleEnd].cluster) : span.charEnd
        var source = glyphs
        var range = span.glyphStart..<span.visibleEnd
        let unsafeStart = span.glyphStart > 0 && glyphs[span.glyphStart].unsafeToBreak
        let unsafeEnd = span.glyphEnd < glyphs.count && glyphs[span.glyphEnd].unsafeToBreak
        if (unsafeStart || unsafeEnd) && span.charStart < visibleCharEnd {
            // Shaping across this break would differ from shaping the line alone
            // (kerning or a ligature spans it): reshape just this line.
            var reshaped: [ShapedGlyph] = []
            shaper.shape(block, runs: runs, range: span.charStart..<visibleCharEnd, isolated: true,
                         paragraphStart: paragraphStart, paragraphEnd: paragraphEnd, into: &reshaped)
            source = reshaped
            range = 0..<reshaped.count
        }
        var placed: [PositionedGlyph] = []
        placed.reserveCapacity(range.count)
        var highlights: [HighlightRun] = []
        var pen: Float = 0
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
                                          textOffset: glyph.cluster + Int32(offset), ink: ink))
            pen += glyph.advance
        }
        if let bidi {
            for g in bidi.visualOrder(of: source, range, chars: span.charStart..<visibleCharEnd) { place(g) }
        } else {
            for g in range { place(g) }
        }
        let shift = alignmentShift(free: Float(columnWidth) - pen, rtl: rtl)
        if shift != 0 {
            for i in placed.indices { placed[i].x += shift }
            for i in highlights.indices { highlights[i].x += shift }
        }
        let before = wordBase + words.startsBefore(span.charStart)
        let through = wordBase + words.startsBefore(span.charEnd)
        let firstWord: Int
        if let firstInk = words.firstNonSpace(in: span.charStart..<span.charEnd) {
            firstWord = words.isStart(firstInk) ? before : max(0, before - 1)
        } else {
            firstWord = before
        }
        return LaidOutLine(y: y(ofLine: lines.count), height: lineHeight, baseline: baselineOffset,
                           width: Double(pen), glyphs: placed, highlights: highlights, firstWordIndex: firstWord,
                           isRTL: rtl, textRange: (offset + span.charStart)..<(offset + span.charEnd),
                           wordStartsBefore: before, wordStartsThrough: through)
    }

    /// How far a line moves right from the column's left edge. `left` is the side a
    /// paragraph starts on, so a right-to-left line aligned left sits at the right
    /// edge. A centred line moves by whole pixels: its glyphs keep the sub-pixel
    /// phases they would have at the edge, and draw as crisp.
    private func alignmentShift(free: Float, rtl: Bool) -> Float {
        switch (style.alignment, rtl) {
        case (.left, false), (.right, true): 0
        case (.left, true), (.right, false): free
        case (.centre, _): max(0, free / 2).rounded(.down)
        }
    }
}
