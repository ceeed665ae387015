import CUnibreak

/// libunibreak keeps its tables in globals that must be set up once.
private let unibreakInitialized: Bool = {
    init_linebreak()
    return true
}()

/// One line chosen by the breaker: glyphs `[glyphStart, visibleEnd)` are drawn, the
/// rest up to `glyphEnd` are hanging spaces; scalars `[charStart, charEnd)`.
struct LineSpan {
    var glyphStart: Int
    var visibleEnd: Int
    var glyphEnd: Int
    var charStart: Int
    var charEnd: Int
    var width: Float
}

/// Greedy line breaking over shaped glyphs at UAX #14 opportunities (libunibreak).
/// A word wider than the column is broken at a glyph cluster boundary, so one endless
/// line never overflows.
enum LineBreaker {
    /// Per scalar: may a line break after it (LINEBREAK_ALLOWBREAK/MUSTBREAK)?
    static func opportunities(_ text: UnsafeBufferPointer<UInt32>) -> [Bool] {
        guard unibreakInitialized, let base = text.baseAddress, !text.isEmpty else { return [] }
        var breaks = [CChar](repeating: 0, count: text.count)
        if text.contains(where: crashesLibunibreak) {
            let safe = text.map { crashesLibunibreak($0) ? safeStandIn($0) : $0 }
            set_linebreaks_utf32(safe, safe.count, nil, &breaks)
        } else {
            set_linebreaks_utf32(base, text.count, nil, &breaks)
        }
        return breaks.map { $0 == CChar(LINEBREAK_ALLOWBREAK) || $0 == CChar(LINEBREAK_MUSTBREAK) }
    }

    /// libunibreak 1.1 predates regional indicators (flags) and aborts on an
    /// assertion for them and for U+FFFF; found by feeding it every code point.
    private static func crashesLibunibreak(_ s: UInt32) -> Bool {
        (0x1F1E6...0x1F1FF).contains(s) || s == 0xFFFF
    }

    /// Flags break like ideographs (HarfBuzz keeps each flag's pair in one cluster,
    /// so no line splits a flag); a noncharacter like the replacement character.
    private static func safeStandIn(_ s: UInt32) -> UInt32 { s == 0xFFFF ? 0xFFFD : 0x4E00 }

    static func isHangingSpace(_ s: UInt32) -> Bool {
        s == 0x20 || s == 0x3000 || s == 0x1680 || (s >= 0x2000 && s <= 0x200A && s != 0x2007) || s == 0x205F
    }

    static func breakLines(glyphs: [ShapedGlyph], text: UnsafeBufferPointer<UInt32>, canBreakAfter: [Bool],
                           columnWidth: Float) -> [LineSpan] {
        var lines: [LineSpan] = []
        let count = glyphs.count
        guard count > 0 else {
            return [LineSpan(glyphStart: 0, visibleEnd: 0, glyphEnd: 0, charStart: 0, charEnd: text.count, width: 0)]
        }
        var lineStart = 0
        var width: Float = 0           // advance of [lineStart, g)
        var visibleWidth: Float = 0    // same, without trailing spaces
        var visibleEnd = 0
        var lastBreak = -1             // glyph a new line could start at
        var widthAtBreak: Float = 0, visibleAtBreak: Float = 0, visibleEndAtBreak = 0

        func emit(end: Int, visibleEnd: Int, visibleWidth: Float) {
            let charStart = lines.last?.charEnd ?? 0
            let charEnd = end < count ? Int(glyphs[end].cluster) : text.count
            lines.append(LineSpan(glyphStart: lineStart, visibleEnd: max(visibleEnd, lineStart), glyphEnd: end,
                                  charStart: charStart, charEnd: charEnd, width: visibleWidth))
        }

        var g = 0
        while g < count {
            let cluster = Int(glyphs[g].cluster)
            var end = g + 1
            var clusterWidth = glyphs[g].advance
            while end < count && glyphs[end].cluster == glyphs[g].cluster {
                clusterWidth += glyphs[end].advance
                end += 1
            }
            let space = cluster < text.count && isHangingSpace(text[cluster])
            if g > lineStart && cluster > 0 && canBreakAfter[cluster - 1] {
                lastBreak = g
                widthAtBreak = width
                visibleAtBreak = visibleWidth
                visibleEndAtBreak = visibleEnd
            }
            if !space && g > lineStart && width + clusterWidth > columnWidth {
                if lastBreak > lineStart {
                    emit(end: lastBreak, visibleEnd: visibleEndAtBreak, visibleWidth: visibleAtBreak)
                    lineStart = lastBreak
                    width -= widthAtBreak
                    visibleWidth = max(0, visibleWidth - widthAtBreak)
                    visibleEnd = max(visibleEnd, lineStart)
                } else {
                    emit(end: g, visibleEnd: visibleEnd, visibleWidth: visibleWidth)
                    lineStart = g
                    width = 0
                    visibleWidth = 0
                    visibleEnd = g
                }
                lastBreak = -1
            }
            width += clusterWidth
            if !space {
                visibleWidth = width
                visibleEnd = end
            }
            g = end
        }
        emit(end: count, visibleEnd: visibleEnd, visibleWidth: visibleWidth)
        return lines
    }
}
