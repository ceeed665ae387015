import Markup
import Testing
@testable import Prompter

/// A presenter's marks (issue 42): Markdown emphasis, highlight and directions become
/// spans of the reading text, which itself keeps only the words.
@Suite struct ReadingMarkupTests {
    private func read(_ markdown: String, directions: DirectionMarks = .brackets)
        -> (text: String, markup: ReadingMarkup) {
        let result = MarkdownReadingText.convertMarkingHeadings(markdown, directions: directions)
        return (result.text, result.markup)
    }

    /// The text under each span, with its marks.
    private func marked(_ text: String, _ markup: ReadingMarkup) -> [String: TextMarks] {
        let scalars = Array(text.unicodeScalars)
        var result: [String: TextMarks] = [:]
        for span in markup.spans {
            var piece = String.UnicodeScalarView()
            piece.append(contentsOf: scalars[span.range])
            result[String(piece)] = span.marks
        }
        return result
    }

    @Test func strongEmphasisAndHighlightMarkTheirWordsAndLeaveOnlyTheWords() {
        let (text, markup) = read("A **stressed** word, *a change of tone*, __bold__ _it_ and ==marked== ***both***.")
        #expect(text == "A stressed word, a change of tone, bold it and marked both.")
        #expect(marked(text, markup) == [
            "stressed": .strong, "a change of tone": .emphasis, "bold": .strong, "it": .emphasis,
            "marked": .highlight, "both": [.strong, .emphasis],
        ])
    }

    @Test func unmatchedDelimitersAndLoneEqualsSignsStayText() {
        let (text, markup) = read("a = b, x == y, 2 * 3 and **open")
        #expect(text == "a = b, x == y, 2 * 3 and **open")
        #expect(markup.isEmpty)
    }

    @Test func aSpanCrossesASoftLineBreakAndNestsInsideAnother() {
        let (text, markup) = read("Say **this whole\nphrase *slowly* now** please.")
        #expect(text == "Say this whole phrase slowly now please.")
        #expect(marked(text, markup) == ["this whole phrase ": .strong, "slowly": [.strong, .emphasis], " now": .strong])
    }

    @Test func directionsKeepTheirBracketsAndAnEscapedBracketIsText() {
        let (text, markup) = read("Hello. [PAUSE] Now [LOOK AT **CAMERA 2**] and \\[not this] or [a link](https://x.org).")
        #expect(text == "Hello. [PAUSE] Now [LOOK AT CAMERA 2] and [not this] or a link.")
        #expect(marked(text, markup) == [
            "[PAUSE]": .direction, "[LOOK AT ": .direction, "CAMERA 2": [.direction, .strong], "]": .direction,
        ])
    }

    @Test func parenthesesAreDirectionsOnlyWhenTheSettingSaysSo() {
        let source = "Smile (smile) and [PAUSE]."
        #expect(read(source).markup.directions.count == 1)
        let both = read(source, directions: .parentheses)
        #expect(marked(both.text, both.markup) == ["(smile)": .direction, "[PAUSE]": .direction])
        #expect(read(source, directions: .off).markup.isEmpty)
    }

    @Test func plainTextHasDirectionsAndDropsTheEscapingBackslashWithMarkersStillInPlace() {
        let source = "Open \\[1] here.\n>> Part two\nNow [BEAT] go."
        let (text, markers, markup) = ScriptLibrary.readingTextAndMarkers(source, format: .plainText, lineBreaks: .keep)
        #expect(text == "Open [1] here.\nPart two\nNow [BEAT] go.")
        #expect(marked(text, markup) == ["[BEAT]": .direction])
        let partTwo = Array(text.unicodeScalars)[markers[0].textOffset...].prefix(8)
        #expect(String(String.UnicodeScalarView(partTwo)) == "Part two")
    }

    @Test func directionsAreNotCountedNorHeardAndEmphasisChangesNoWordNumber() {
        let (text, markup) = read("One two [PAUSE FOR A LAUGH] three four.")
        #expect(ReadingTime.wordCount(text, markup: markup) == 4)
        #expect(ReadingTime.wordCount(text) == 8)
        let heard = ScriptWords(text, markup: markup)
        #expect(heard.tokens == ["one", "two", "three", "four"])
        #expect(heard.words.map(\.index) == [0, 1, 2, 3])
        // Making a word bold changes the marks only: the reading text and with it every
        // word number (saved positions, markers, voice follow) stay the same.
        let emphasised = read("One **two** [PAUSE FOR A LAUGH] *three* four.")
        #expect(emphasised.text == text)
        #expect(ScriptWords(emphasised.text, markup: emphasised.markup) == heard)
    }

    @Test func headingMarkersKeepTheirOffsetsWithMarksAround() {
        let result = MarkdownReadingText.convertMarkingHeadings("# **Opening**\n\nHello *there*.\n\n## Weather [CUE]")
        #expect(result.text == "Opening\n\nHello there.\n\nWeather [CUE]")
        #expect(result.markers.map(\.textOffset) == [0, 23])
        #expect(marked(result.text, result.markup) == ["Opening": .strong, "there": .emphasis, "[CUE]": .direction])
    }

    @Test func flatteningMergesNeighboursAndUnitesOverlaps() {
        let markup = ReadingMarkup(spans: [.init(0..<4, .strong), .init(4..<6, .strong), .init(2..<8, .direction),
                                           .init(9..<9, .emphasis)])
        #expect(markup.spans == [.init(0..<2, .strong), .init(2..<6, [.strong, .direction]), .init(6..<8, .direction)])
        #expect(markup.marks(at: 5) == [.strong, .direction])
        #expect(markup.marks(at: 8) == [])
        #expect(markup.marks(in: 5..<10) == [[.strong, .direction], .direction, .direction, [], []])
        #expect(markup.marks(in: 20..<30) == nil)
    }
}
