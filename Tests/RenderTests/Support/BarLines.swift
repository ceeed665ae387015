import Render

/// Stand-in for laid-out text: each line is a row of bars ("words") whose widths
/// depend on the line index, so any mirror, flip or rotation shows, and each row
/// phase too. It counts
/// how far the block asked for lines, to check that layout is lazy.
final class BarLines: ReadingTextLines {
    let count: Int
    let lineHeight: Int
    let columnWidth: Int
    private(set) var deepestLineAsked = -1
    private(set) var drawCalls = 0
    /// Lines drawn orange whatever colour is asked: a gray block's pieces of them stay
    /// in colour. They say so (as a direction's line does) unless `hidesColour` (as
    /// an emoji's line does not).
    var colouredLines: Set<Int> = []
    var hidesColour = false

    init(count: Int, lineHeight: Int, columnWidth: Int) {
        self.count = count
        self.lineHeight = lineHeight
        self.columnWidth = columnWidth
    }

    func lineHasColour(at index: Int) -> Bool { !hidesColour && colouredLines.contains(index) }

    func lineBox(at index: Int) -> ReadingLineBox? {
        deepestLineAsked = max(deepestLineAsked, index)
        guard index >= 0, index < count else { return nil }
        return ReadingLineBox(y: index * lineHeight, height: lineHeight)
    }

    func drawLine(at index: Int, into image: OpaquePointer, x: Int, y: Int, rowFraction: Int, color: Color,
                  accents: TextAccents?) {
        drawCalls += 1
        let color = colouredLines.contains(index) ? Color(rgb: 0xff8000) : color
        var cursor = x
        var word = 0
        let ink = max(1, lineHeight * 2 / 3)
        while cursor < x + columnWidth {
            let width = 4 + ((index * 7 + word * 13) % 23)
            let rect = PixelRect(x: cursor, y: y + (lineHeight - ink) / 2 + (word % 2),
                                 width: min(width, x + columnWidth - cursor), height: ink - 1)
            TestDrawing.fill(image, rect: rect, color: color)
            if rowFraction > 0 {
                // A row phase moves the bars down by 48ths: the row under each bar is
                // covered by that share, drawn as a shade (no blending needed to tell
                // the phases apart).
                let shade = { (channel: UInt8) in UInt8(Int(channel) * rowFraction / ChunkedTextBlock.rowFractions) }
                TestDrawing.fill(image, rect: PixelRect(x: rect.x, y: rect.maxY, width: rect.width, height: 1),
                                 color: Color(red: shade(color.red), green: shade(color.green), blue: shade(color.blue)))
            }
            cursor += width + 5
            word += 1
        }
    }
}
