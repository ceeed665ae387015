/// What a presenter marked on a stretch of the reading text (issue 42).
public struct TextMarks: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `**strong**`: the reading font's bold face.
    public static let strong = TextMarks(rawValue: 1)
    /// `*emphasis*`: the reading font's italic face.
    public static let emphasis = TextMarks(rawValue: 2)
    /// `[PAUSE]`: a direction to the reader, drawn in its own colour and never read.
    public static let direction = TextMarks(rawValue: 4)
    /// `==marked==`: a highlight colour behind the words.
    public static let highlight = TextMarks(rawValue: 8)

    /// The marks that choose a face (and so change shaping).
    public static let faces: TextMarks = [.strong, .emphasis]
}

/// The marks of a script's reading text, as spans of Unicode scalar offsets (the
/// offsets every layout, marker and voice-follow word uses). The reading text itself
/// keeps no markup, so word numbers and saved positions do not move when a word is
/// made bold.
///
/// Spans are kept flat: sorted, non-empty, non-overlapping, neighbours with the same
/// marks merged; nested marks (a bold word in a direction) are one span with both.
public struct ReadingMarkup: Hashable, Sendable {
    public struct Span: Hashable, Sendable {
        public var range: Range<Int>
        public var marks: TextMarks

        public init(_ range: Range<Int>, _ marks: TextMarks) {
            self.range = range
            self.marks = marks
        }
    }

    public private(set) var spans: [Span]
    /// Every mark used anywhere: a layout with none of `TextMarks.faces` shapes as before.
    public private(set) var used: TextMarks

    public static let none = ReadingMarkup(spans: [])

    /// Flattens spans that may overlap or nest: each stretch gets the union of the
    /// marks of the spans over it.
    public init(spans given: [Span]) {
        let real = given.filter { !$0.range.isEmpty && !$0.marks.isEmpty }
        var bounds = Set<Int>()
        for span in real {
            bounds.insert(span.range.lowerBound)
            bounds.insert(span.range.upperBound)
        }
        let cuts = bounds.sorted()
        var flat: [Span] = []
        if cuts.count > 1 {
            // A sweep over the cuts: marks opening and closing at each one.
            var opening: [Int: [TextMarks]] = [:], closing: [Int: [TextMarks]] = [:]
            for span in real {
                opening[span.range.lowerBound, default: []].append(span.marks)
                closing[span.range.upperBound, default: []].append(span.marks)
            }
            var counts = [Int](repeating: 0, count: 8)
            for (index, cut) in cuts.enumerated().dropLast() {
                for marks in closing[cut] ?? [] { Self.count(marks, into: &counts, by: -1) }
                for marks in opening[cut] ?? [] { Self.count(marks, into: &counts, by: 1) }
                var marks: TextMarks = []
                for bit in 0..<8 where counts[bit] > 0 { marks.insert(TextMarks(rawValue: 1 << bit)) }
                guard !marks.isEmpty else { continue }
                let range = cut..<cuts[index + 1]
                if let last = flat.last, last.marks == marks, last.range.upperBound == range.lowerBound {
                    flat[flat.count - 1].range = last.range.lowerBound..<range.upperBound
                } else {
                    flat.append(Span(range, marks))
                }
            }
        }
        spans = flat
        used = flat.reduce([]) { $0.union($1.marks) }
    }

    private static func count(_ marks: TextMarks, into counts: inout [Int], by delta: Int) {
        for bit in 0..<8 where marks.rawValue & (1 << bit) != 0 { counts[bit] += delta }
    }

    public var isEmpty: Bool { spans.isEmpty }

    /// The marks at scalar `offset`.
    public func marks(at offset: Int) -> TextMarks {
        var low = 0, high = spans.count
        while low < high {
            let mid = (low + high) / 2
            if spans[mid].range.upperBound <= offset { low = mid + 1 } else { high = mid }
        }
        return low < spans.count && spans[low].range.contains(offset) ? spans[low].marks : []
    }

    /// The marks of each scalar of `range`, or nil when none of it is marked (the
    /// common case, which then costs nothing per scalar).
    public func marks(in range: Range<Int>) -> [TextMarks]? {
        var low = 0, high = spans.count
        while low < high {
            let mid = (low + high) / 2
            if spans[mid].range.upperBound <= range.lowerBound { low = mid + 1 } else { high = mid }
        }
        guard low < spans.count, spans[low].range.lowerBound < range.upperBound else { return nil }
        var result = [TextMarks](repeating: [], count: range.count)
        var index = low
        while index < spans.count, spans[index].range.lowerBound < range.upperBound {
            let span = spans[index]
            for offset in max(span.range.lowerBound, range.lowerBound)..<min(span.range.upperBound, range.upperBound) {
                result[offset - range.lowerBound] = span.marks
            }
            index += 1
        }
        return result
    }

    /// The same marks for a text placed `delta` scalars further on.
    public func shifted(by delta: Int) -> ReadingMarkup {
        var copy = self
        for index in copy.spans.indices {
            let range = copy.spans[index].range
            copy.spans[index].range = (range.lowerBound + delta)..<(range.upperBound + delta)
        }
        return copy
    }

    /// Spans of several texts joined one after another (their offsets already placed).
    public static func joined(_ parts: [ReadingMarkup]) -> ReadingMarkup {
        ReadingMarkup(spans: parts.flatMap(\.spans))
    }

    /// The directions' ranges: text the talent does not say.
    public var directions: [Range<Int>] {
        spans.filter { $0.marks.contains(.direction) }.map(\.range)
    }
}
