/// A script as Unicode scalars, split into paragraphs.
///
/// Paragraphs end at LF, CR, CRLF, NEL, VT, FF, U+2028 and U+2029; a CRLF counts as one
/// break. Tabs and other control characters become spaces (a prompter has no tab
/// stops, and fonts draw controls as boxes). Offsets everywhere are indices into
/// `scalars`, which keeps one entry per scalar of the original string.
struct ScriptText {
    let scalars: [UInt32]
    let paragraphs: [Range<Int>]

    init(_ text: String) {
        var scalars: [UInt32] = []
        scalars.reserveCapacity(text.utf8.count)
        var paragraphs: [Range<Int>] = []
        var paragraphStart = 0
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let index = scalars.count
            switch value {
            case 0x0A where previousWasCR:
                scalars.append(0x0A)
                paragraphStart = index + 1
            case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029:
                scalars.append(0x0A)
                paragraphs.append(paragraphStart..<index)
                paragraphStart = index + 1
            case 0..<0x20, 0x7F:
                scalars.append(0x20)
            default:
                scalars.append(value)
            }
            previousWasCR = value == 0x0D
        }
        paragraphs.append(paragraphStart..<scalars.count)
        self.scalars = scalars
        self.paragraphs = paragraphs
    }

    /// Where to end a layout block that starts at `start`: the paragraph's end, or for
    /// a long paragraph (one endless line) the first safe break after `preferred`
    /// scalars, so the first screen does not wait for the whole paragraph to shape.
    func blockEnd(from start: Int, paragraphEnd: Int, preferred: Int = 2048) -> Int {
        guard paragraphEnd - start > preferred * 2 else { return paragraphEnd }
        var i = start + preferred
        let anyCutFrom = start + preferred * 4
        while i < paragraphEnd - 1 {
            if isSafeCut(at: i) { return i }
            // No space for a long stretch (one endless word): cut anyway, but not
            // inside a grapheme. The layout re-lays the block's last line with the
            // next block, so the cut never shows.
            if i >= anyCutFrom && !continuesGrapheme(scalars[i]) { return i }
            i += 1
        }
        return paragraphEnd
    }

    private func continuesGrapheme(_ s: UInt32) -> Bool {
        guard s >= 0x300, let scalar = Unicode.Scalar(s) else { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format: return true
        default: return (0xFE00...0xFE0F).contains(s) || (0x1F3FB...0x1F3FF).contains(s)
        }
    }

    /// Between a letter + space and a letter (UAX #14 LB18 always allows that break,
    /// and no shaping crosses a space), or between two Han ideographs.
    private func isSafeCut(at i: Int) -> Bool {
        let before = scalars[i - 1], after = scalars[i]
        if before == 0x20 { return i >= 2 && isLetter(scalars[i - 2]) && isLetter(after) }
        return isHan(before) && isHan(after)
    }

    private func isLetter(_ s: UInt32) -> Bool {
        if s < 0x80 { return (s | 0x20) >= 0x61 && (s | 0x20) <= 0x7A }
        return Unicode.Scalar(s)?.properties.isAlphabetic ?? false
    }

    private func isHan(_ s: UInt32) -> Bool { (0x4E00...0x9FFF).contains(s) }
}
