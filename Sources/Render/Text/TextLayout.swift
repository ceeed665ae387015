import Markup

/// The whole script shaped and wrapped to a column, once per (text, style, width).
///
/// Layout is incremental: lines are produced block by block (a paragraph, or a
/// ~2,000-character piece of a very long one) only as far as someone asks, so the
/// first screen is ready long before a 10,000-word script is done. Every accessor
/// that needs a line lays out up to it. Lines all have the same height, so y <-> line
/// is arithmetic.
///
/// Words are UAX #14 segments that contain something other than spaces, counted over
/// the whole text. They depend on the text only, so `wordIndex(atY:)` in one layout
/// and `y(ofWord:)` in another layout of the same text keep the reading position
/// across a change of font, size, spacing or width.
///
/// Marks (`ReadingMarkup`) choose faces (bold, italic), colours (directions) and
/// highlights, never the words: word numbers are the same with or without them.
///
/// Not thread-safe: a layout belongs to the rendering thread.
public final class TextLayout {
    public let style: TextStyle
    public let columnWidth: Double
    /// Set when the style's family is not installed and another was used.
    public let fontWarning: FontWarning?
    public let lineHeight: Double
    /// Distance from a line's top to its baseline.
    public let baselineOffset: Double
    public let fonts: FontLibrary
    /// The lines laid out so far, top to bottom.
    public internal(set) var lines: [LaidOutLine] = []
    /// The knots of the text position (`textPosition(atY:)`) among `lines` so far.
    private var knots = TextPositionKnots()

    let script: ScriptText
    let markup: ReadingMarkup
    let shaper: BlockShaper
    private let shapingCache: ShapedParagraphCache
    private var nextParagraph = 0
    var nextChar = 0
    private var paragraphRTL: Bool?
    private var wordStartsBeforeNext = 0
    private var segmentHasWordAtNext = false

    public init(text: String, markup: ReadingMarkup = .none, style: TextStyle, columnWidth: Double,
                fonts: FontLibrary) throws(TextError) {
        let (primary, warning) = try fonts.primaryTypeface(for: style)
        // The marked faces are found only when the text has marks that need them.
        let marked = markup.used.isDisjoint(with: TextMarks.faces) ? [] : [
            try fonts.markedTypeface(for: style, strong: true, italic: false),
            try fonts.markedTypeface(for: style, strong: false, italic: true),
            try fonts.markedTypeface(for: style, strong: true, italic: true),
        ]
        self.markup = markup
        self.style = style
        self.columnWidth = max(1, columnWidth.isFinite ? columnWidth : 1)
        self.fonts = fonts
        fontWarning = warning
        let natural = primary.ascent + primary.descent + primary.lineGap
        lineHeight = max(1, (natural * style.clampedLineSpacing).rounded())
        // Extra spacing is shared above and below, so the text sits in the middle of
        // its line and the reading marker lines up with the middle of a line.
        baselineOffset = ((lineHeight - primary.ascent - primary.descent) / 2 + primary.ascent).rounded()
        script = ScriptText(text)
        shaper = BlockShaper(fonts: fonts, primary: primary, marked: marked)
        shapingCache = ShapedParagraphCache()
    }

    /// The same layout with another line spacing. Spacing moves lines but changes
    /// no glyph or break, so the shaped and wrapped lines (and the incremental state)
    /// are kept; only their y changes.
    public func withLineSpacing(_ spacing: Double) -> TextLayout {
        var style = self.style
        style.lineSpacing = spacing
        return TextLayout(sharing: self, style: style, columnWidth: columnWidth, keepLines: true)
    }

    /// The same text and font in another column width (a margin change): the
    /// paragraphs shaped so far are reused, lines are broken again lazily.
    public func withColumnWidth(_ width: Double) -> TextLayout {
        TextLayout(sharing: self, style: style, columnWidth: width, keepLines: false)
    }

    private init(sharing other: TextLayout, style: TextStyle, columnWidth: Double, keepLines: Bool) {
        self.style = style
        self.columnWidth = max(1, columnWidth.isFinite ? columnWidth : 1)
        fonts = other.fonts
        fontWarning = other.fontWarning
        let primary = other.shaper.primary
        let natural = primary.ascent + primary.descent + primary.lineGap
        lineHeight = max(1, (natural * style.clampedLineSpacing).rounded())
        baselineOffset = ((lineHeight - primary.ascent - primary.descent) / 2 + primary.ascent).rounded()
        script = other.script
        markup = other.markup
        shaper = other.shaper
        shapingCache = other.shapingCache
        guard keepLines else { return }
        nextParagraph = other.nextParagraph
        nextChar = other.nextChar
        paragraphRTL = other.paragraphRTL
        wordStartsBeforeNext = other.wordStartsBeforeNext
        segmentHasWordAtNext = other.segmentHasWordAtNext
        lines = other.lines
        for i in lines.indices {
            lines[i].y = Double(i) * lineHeight
            lines[i].height = lineHeight
            lines[i].baseline = baselineOffset
        }
    }

    public var lineCount: Int { lines.count }
    public var isComplete: Bool { nextParagraph >= script.paragraphs.count }
    public var laidOutHeight: Double { Double(lines.count) * lineHeight }

    /// Exact once complete; before that, extrapolated from what is laid out.
    public var totalHeight: Double {
        if isComplete { return laidOutHeight }
        let total = Double(script.scalars.count)
        let done = Double(nextChar)
        if done > 0 && !lines.isEmpty { return laidOutHeight * max(1, total / done) }
        let charsPerLine = max(1, columnWidth / (style.clampedFontSize * 0.5))
        return max(1, (total / charsPerLine).rounded(.up)) * lineHeight
    }

    /// Total words in the text; nil until layout is complete.
    public var wordCount: Int? { isComplete ? wordStartsBeforeNext : nil }

    public func ensureLaidOut(throughY y: Double) {
        while !isComplete && laidOutHeight <= y { layoutNextBlock() }
    }

    public func ensureLaidOut(throughLine index: Int) {
        while !isComplete && lines.count <= index { layoutNextBlock() }
    }

    public func layoutAll() {
        while !isComplete { layoutNextBlock() }
    }

    public func line(at index: Int) -> LaidOutLine? {
        guard index >= 0 else { return nil }
        ensureLaidOut(throughLine: index)
        return index < lines.count ? lines[index] : nil
    }

    /// The lines that intersect `top..<bottom`, laying out as far as needed.
    public func lines(fromY top: Double, toY bottom: Double) -> ArraySlice<LaidOutLine> {
        ensureLaidOut(throughY: bottom)
        let first = max(0, Int((top / lineHeight).rounded(.down)))
        let last = min(lines.count, Int((bottom / lineHeight).rounded(.up)))
        return first < last ? lines[first..<last] : []
    }

    public func y(ofLine index: Int) -> Double { Double(index) * lineHeight }

    /// The line under `y`, clamped to the text.
    public func lineIndex(atY y: Double) -> Int {
        ensureLaidOut(throughY: y)
        guard !lines.isEmpty else { return 0 }
        let index = y.isFinite ? Int((y / lineHeight).rounded(.down)) : 0
        return min(max(index, 0), lines.count - 1)
    }

    /// The word at the start of the line under `y`.
    public func wordIndex(atY y: Double) -> Int {
        let index = lineIndex(atY: y)
        return index < lines.count ? lines[index].firstWordIndex : 0
    }

    /// Top of the line on which word `index` starts; the last line when the text has
    /// fewer words.
    public func y(ofWord index: Int) -> Double {
        while !isComplete && wordStartsBeforeNext <= index { layoutNextBlock() }
        var low = 0, high = lines.count
        while low < high {
            let mid = (low + high) / 2
            if lines[mid].wordStartsThrough > index { high = mid } else { low = mid + 1 }
        }
        return y(ofLine: min(low, max(lines.count - 1, 0)))
    }

    /// The text under `y` as one continuous, increasing position in scalars, and the
    /// scalars a line spans there: linear in y between knots, where it is the first
    /// scalar of the knot's line (past the last line, the text's end). A paragraph's first
    /// line is a knot, and every `TextPositionKnots.lines`-th line within a paragraph, so
    /// two layouts of the same text (another font, width or size) agree exactly at every
    /// paragraph and within a few lines' unevenness between: a follower rig maps the
    /// lead's reading line through it and moves at a steady speed where one line holds a
    /// long word and the next many short ones.
    /// `next` is the next knot's position and the scalars a line spans after it, so a
    /// follower extrapolating the lead's motion goes through the knot as the lead will.
    public func textPosition(atY y: Double) -> (position: Double, span: Double, next: (position: Double, span: Double)) {
        let line = lineIndex(atY: y)
        guard line < lines.count else { return (0, 1, (1, 1)) }
        let block = knotBlock(around: line)
        let fraction = min(max((y - block.top) / (block.bottom - block.top), 0), 1)
        let after = block.next < lines.count ? knotBlock(around: block.next).span : block.span
        return (block.first + fraction * (block.end - block.first), block.span, (block.end, after))
    }

    /// The y whose text position is `position` (the inverse of `textPosition(atY:)`),
    /// and the scalars a line spans there.
    public func y(ofTextPosition position: Double) -> (y: Double, span: Double) {
        let target = max(0, position.isFinite ? position : 0)
        while !isComplete && Double(lines.last?.textRange.lowerBound ?? 0) <= target { layoutNextBlock() }
        guard !lines.isEmpty else { return (0, 1) }
        knots.extend(over: lines)
        let all = knots.lines
        var low = 0, high = all.count
        while low < high {
            let mid = (low + high) / 2
            if Double(lines[all[mid]].textRange.lowerBound) <= target { low = mid + 1 } else { high = mid }
        }
        let block = knotBlock(around: all[max(low - 1, 0)])
        let fraction = min(max((target - block.first) / (block.end - block.first), 0), 1)
        return (block.top + fraction * (block.bottom - block.top), block.span)
    }

    /// The knots either side of `line`: their tops, their first scalars, the mean
    /// scalars a line spans between them, and the next knot's line.
    private func knotBlock(around line: Int) -> (top: Double, bottom: Double, first: Double, end: Double, span: Double,
                                                 next: Int) {
        ensureLaidOut(throughLine: line + TextPositionKnots.lines + 1)
        knots.extend(over: lines)
        let (start, next) = knots.block(around: line, lineCount: lines.count)
        let first = Double(lines[start].textRange.lowerBound)
        let end = next < lines.count ? Double(lines[next].textRange.lowerBound) : Double(lines[next - 1].textRange.upperBound + 1)
        let span = max(end - first, 1) / Double(next - start)
        return (y(ofLine: start), y(ofLine: next), first, max(end, first + 1), span, next)
    }

    /// Top of the line that holds scalar `offset` of the text (a marker's line): lays
    /// out as far as needed; the last line when the text is shorter.
    public func y(ofTextOffset offset: Int) -> Double {
        while !isComplete && (lines.last?.textRange.upperBound ?? 0) < offset { layoutNextBlock() }
        var low = 0, high = lines.count
        while low < high {
            let mid = (low + high) / 2
            if lines[mid].textRange.upperBound < offset { low = mid + 1 } else { high = mid }
        }
        // A line ends where the next begins (a wrap) or at its paragraph's break: the
        // offset belongs to the first line ending at or after it, unless that line ends
        // exactly there and the next starts there.
        if low + 1 < lines.count, lines[low].textRange.upperBound == offset,
           lines[low + 1].textRange.lowerBound == offset { low += 1 }
        return y(ofLine: min(low, max(lines.count - 1, 0)))
    }

    // MARK: laying out

    /// Lays out the next block: shape, find break opportunities and words, break, place.
    private func layoutNextBlock() {
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
        let placer = LinePlacer(shaper: shaper, alignment: style.alignment, columnWidth: columnWidth,
                                lineHeight: lineHeight, baselineOffset: baselineOffset)
        let shapedBlock = LinePlacer.Block(text: block, offset: offset, marks: marks, runs: runs, glyphs: glyphs,
                                           bidi: bidi, rtl: rtl, words: words, wordBase: base,
                                           paragraphStart: paragraphStart, paragraphEnd: paragraphEnd)
        for span in spans[0..<keep] {
            lines.append(placer.line(span, of: shapedBlock, y: y(ofLine: lines.count)))
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

}
