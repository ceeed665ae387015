import CFribidi

/// Bidirectional levels of one layout block, from FriBidi (UAX #9).
///
/// Why FriBidi and not raqm: raqm bundles FriBidi + HarfBuzz to shape a paragraph, but
/// it does no line breaking, and we already own shaping (HarfBuzz, per run, with
/// font fallback) and breaking (libunibreak). FriBidi gives exactly the missing part:
/// embedding levels per paragraph, and the visual reordering of each line once the
/// breaker has chosen the line, which is when reordering must happen.
struct BidiParagraph {
    let levels: [UInt8]
    let types: [FriBidiCharType]
    let isRTL: Bool

    /// Levels for `text`; nil when nothing in it can be right to left, which skips
    /// FriBidi for the common case. `baseRTL` forces the paragraph direction (for
    /// later blocks of a long paragraph); nil resolves it from the first strong letter.
    static func resolve(_ text: UnsafeBufferPointer<UInt32>, baseRTL: Bool?) -> BidiParagraph? {
        guard baseRTL == true || text.contains(where: mayBeRightToLeft) else { return nil }
        guard let base = text.baseAddress else { return nil }
        let count = text.count
        var types = [FriBidiCharType](repeating: FRIBIDI_TYPE_LTR, count: count)
        var brackets = [FriBidiBracketType](repeating: 0, count: count)
        var levels = [FriBidiLevel](repeating: 0, count: count)
        fribidi_get_bidi_types(base, Int32(count), &types)
        fribidi_get_bracket_types(base, Int32(count), types, &brackets)
        var direction: FriBidiParType = baseRTL.map { $0 ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR } ?? FRIBIDI_PAR_ON
        guard fribidi_get_par_embedding_levels_ex(types, brackets, Int32(count), &direction, &levels) > 0 else {
            return nil
        }
        let rtl = direction == FRIBIDI_PAR_RTL
        let unsignedLevels = levels.map { UInt8(bitPattern: $0) }
        if !rtl && !unsignedLevels.contains(where: { $0 & 1 == 1 }) { return nil }
        return BidiParagraph(levels: unsignedLevels, types: types, isRTL: rtl)
    }

    /// The order in which to draw the glyphs of one line, left to right.
    ///
    /// `glyphs[glyphRange]` is in logical order, clusters relative to the block;
    /// `chars` is the line's scalar range. FriBidi reorders the characters (rules L1
    /// to L2); each glyph cluster then takes the visual place of its first
    /// character, and the glyphs inside a right-to-left cluster turn back to
    /// HarfBuzz's visual order.
    func visualOrder(of glyphs: [ShapedGlyph], _ glyphRange: Range<Int>, chars: Range<Int>) -> [Int] {
        let count = chars.count
        guard count > 0, !glyphRange.isEmpty else { return Array(glyphRange) }
        var lineLevels = levels[chars].map { FriBidiLevel(bitPattern: $0) }
        var map = [FriBidiStrIndex](0..<Int32(count))
        let reordered = types.withUnsafeBufferPointer { typesBuffer in
            fribidi_reorder_line(0, typesBuffer.baseAddress.map { $0 + chars.lowerBound }, Int32(count), 0,
                                 isRTL ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR, &lineLevels, nil, &map)
        }
        guard reordered > 0 else { return Array(glyphRange) }
        var visualPlace = [Int32](repeating: 0, count: count)
        for (visual, logical) in map.enumerated() where logical >= 0 && Int(logical) < count {
            visualPlace[Int(logical)] = Int32(visual)
        }
        // Clusters: consecutive glyphs sharing a cluster value.
        var clusters: [(place: Int32, start: Int, end: Int, rtl: Bool)] = []
        var g = glyphRange.lowerBound
        while g < glyphRange.upperBound {
            let cluster = glyphs[g].cluster
            var end = g + 1
            while end < glyphRange.upperBound && glyphs[end].cluster == cluster { end += 1 }
            let charIndex = min(max(Int(cluster) - chars.lowerBound, 0), count - 1)
            let nextChar = end < glyphRange.upperBound
                ? min(max(Int(glyphs[end].cluster) - chars.lowerBound, charIndex + 1), count) : count
            var place = visualPlace[charIndex]
            for c in charIndex..<max(nextChar, charIndex + 1) { place = min(place, visualPlace[c]) }
            clusters.append((place, g, end, lineLevels[charIndex] & 1 == 1))
            g = end
        }
        clusters.sort { $0.place < $1.place }
        var order: [Int] = []
        order.reserveCapacity(glyphRange.count)
        for cluster in clusters {
            if cluster.rtl {
                order.append(contentsOf: (cluster.start..<cluster.end).reversed())
            } else {
                order.append(contentsOf: cluster.start..<cluster.end)
            }
        }
        return order
    }

    private static func mayBeRightToLeft(_ s: UInt32) -> Bool {
        switch s {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF,
             0x200F, 0x202B, 0x202E, 0x2067, 0x061C:
            return true
        default:
            return false
        }
    }
}
