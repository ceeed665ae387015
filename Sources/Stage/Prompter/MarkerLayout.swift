/// The outer display's layout of the open script as the controller sees it: where
/// markers and words fall, and how many words a pixel of scroll holds. The stage owns
/// the layout and hands the controller these maps.
package struct MarkerLayout {
    /// The scroll offset that puts the line holding a text offset at the reading line.
    package var offsetOfText: (Int) -> Double
    /// The text offset where the line at the reading line for a scroll offset starts.
    package var textAtOffset: (Double) -> Int
    /// Words per pixel of scroll in the current layout (its words over its height), nil
    /// before there is a layout: what turns px/s into words per minute at any font size.
    package var wordsPerPixel: () -> Double?
    /// The layout line (from 0) at a scroll offset's reading line; nil before there is a
    /// layout. Voice follow and the status count lines with it.
    package var lineIndex: (Double) -> Int?

    package init(offsetOfText: @escaping (Int) -> Double, textAtOffset: @escaping (Double) -> Int,
                 wordsPerPixel: @escaping () -> Double? = { nil }, lineIndex: @escaping (Double) -> Int? = { _ in nil }) {
        self.offsetOfText = offsetOfText
        self.textAtOffset = textAtOffset
        self.wordsPerPixel = wordsPerPixel
        self.lineIndex = lineIndex
    }

    /// Words per minute at `speed` px/s; nil before a layout.
    package func wordsPerMinute(atSpeed speed: Int) -> Int? {
        guard let density = wordsPerPixel() else { return nil }
        return Int((Double(speed) * density * 60).rounded())
    }

    /// The speed (px/s) that reads `wpm` words per minute, unclamped; nil before a layout.
    package func speed(forWordsPerMinute wpm: Int) -> Double? {
        guard let density = wordsPerPixel(), density > 0 else { return nil }
        return Double(wpm) / 60 / density
    }

    /// Voice follow: the offset that brings each word (by its scalar offset in the
    /// reading text) to the reading line; nil before a layout.
    package func offsets(ofScalars scalars: [Int]) -> [Double]? {
        guard wordsPerPixel() != nil else { return nil }
        return scalars.map(offsetOfText)
    }

    /// The layout line of each such offset (they are line tops), nil before a layout.
    package func lines(ofOffsets offsets: [Double]) -> [Int]? {
        var lines: [Int] = []
        for offset in offsets {
            guard let line = lineIndex(offset + 0.5) else { return nil }
            lines.append(line)
        }
        return lines
    }
}

/// Which marker a jump goes to (`rig ctl marker next|prev|start|N|NAME`).
package enum MarkerTarget: Equatable, Sendable {
    case next, previous, start
    /// 1-based, in reading order.
    case number(Int)
    /// A marker's name: exact (case-insensitive) first, else the first it starts with.
    case name(String)

    /// Reads the words `rig ctl marker` takes.
    package init(_ word: String) {
        switch word.lowercased() {
        case "next": self = .next
        case "prev", "previous": self = .previous
        case "start", "top": self = .start
        default: self = Int(word).map(MarkerTarget.number) ?? .name(word)
        }
    }
}

/// A marker of the open script placed in the current layout.
package struct PlacedMarker: Equatable {
    /// 1-based, in reading order.
    package var number: Int
    package var name: String?
    /// Set by the operator while prompting (not a heading or `>>` line).
    package var isOperator: Bool
    package var textOffset: Int
    /// The scroll offset that brings it to the reading line.
    package var offset: Double

    /// What the console and the status call it.
    package var label: String { name.map { $0.isEmpty ? "Marker \(number)" : $0 } ?? "Marker \(number) (set)" }
}

/// Why a marker request was refused, in the operator's words.
package enum MarkerError: Error, Equatable, CustomStringConvertible {
    case noScript
    case noMarkers
    case noNext
    case noPrevious
    case noNumber(Int, count: Int)
    case noName(String)
    case cannotSave(String)

    package var description: String {
        switch self {
        case .noScript: "no script is open"
        case .noMarkers: "the script has no markers (Markdown headings, lines starting with >>, or set ones)"
        case .noNext: "no marker after the reading line"
        case .noPrevious: "no marker before the reading line"
        case let .noNumber(number, count): "there is no marker \(number); the script has \(count)"
        case let .noName(name): "no marker is named \"\(name)\""
        case let .cannotSave(message): "the marker is set but was not saved: \(message)"
        }
    }
}
