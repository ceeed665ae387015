import Foundation
import Testing
@testable import Prompter

/// The plain-text rule on real texts: hard-wrapped licences are joined, verse, lyrics,
/// lists and a sentence per line keep their lines.
@Suite struct PlainTextLineBreakTests {
    func lines(_ text: String) -> [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }
    func auto(_ text: String) -> String { PlainTextReadingText.convert(text, lineBreaks: .auto) }

    @Test(arguments: [RealTexts.gpl3, RealTexts.apache, RealTexts.mpl])
    func hardWrappedLicencesAreJoined(path: String) throws {
        let source = try RealTexts.read(path)
        let width = try #require(PlainTextReadingText.hardWrapWidth(of: source), "\(path) not seen as hard-wrapped")
        #expect((70...76).contains(width), "\(path): wrap width \(width)")
        let joined = auto(source)
        let before = lines(source).filter { !$0.allSatisfy(\.isWhitespace) }.count
        let after = lines(joined).filter { !$0.allSatisfy(\.isWhitespace) }
        // Paragraphs, headings and list items stay; the wrapped lines inside them go.
        #expect(after.count * 3 < before * 2, "\(path): \(before) lines became \(after.count)")
        #expect(lines(joined).count - after.count == lines(source).count - before, "blank lines are kept")
        // Joining never adds or loses a word.
        #expect(ReadingTime.wordCount(joined) == ReadingTime.wordCount(source))
        // Only whitespace changes (a space for a newline, nothing for a mended hyphen).
        #expect(joined.filter { !$0.isWhitespace } == source.filter { !$0.isWhitespace })
    }

    @Test func gplParagraphsBecomeOneLine() throws {
        let joined = auto(try RealTexts.read(RealTexts.gpl3))
        #expect(joined.contains("\n  The GNU General Public License is a free, copyleft license for software and other kinds of works.\n"))
        // A list item inside a section starts its own line and joins its own wrapped lines.
        #expect(joined.contains("\n    a) The work must carry prominent notices stating that you modified it, and giving a relevant date.\n"))
        // The centred title lines stop far short of the width: written as separate lines, kept.
        #expect(joined.hasPrefix("                    GNU GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007\n"))
    }

    @Test(arguments: [("poem", RealTexts.poem), ("lyrics", RealTexts.lyrics),
                      ("sentence per line", RealTexts.sentencePerLine), ("running order", RealTexts.runningOrder)])
    func writtenLinesAreKept(name: String, text: String) {
        #expect(PlainTextReadingText.hardWrapWidth(of: text) == nil, "\(name) seen as hard-wrapped")
        #expect(auto(text) == text, "\(name) changed")
    }

    @Test func exampleScriptReadAsPlainTextIsHardWrapped() throws {
        let source = try RealTexts.read(RealTexts.welcome)
        #expect(PlainTextReadingText.hardWrapWidth(of: source) != nil)
        #expect(auto(source).contains("scroll stays smooth on a small computer"))
    }

    @Test func keepAndJoinOverrideTheRule() throws {
        let gpl = try RealTexts.read(RealTexts.gpl3)
        #expect(PlainTextReadingText.convert(gpl, lineBreaks: .keep) == gpl)
        #expect(PlainTextReadingText.convert(RealTexts.poem, lineBreaks: .keep) == RealTexts.poem)
        let poem = PlainTextReadingText.convert(RealTexts.poem, lineBreaks: .join)
        #expect(lines(poem) == [
            "The Lighthouse Keeper", "",
            "Every evening at the harbour wall the keeper climbs the winding stair, counts the steps, a hundred and three, and lights the lamp for ships at sea.",
            "",
            "The gulls go quiet, the tide turns slow, the town below puts out its lights, and far beyond the breaking foam a fishing boat is coming home.",
            "",
            "He never sees the sailors' faces or hears the stories that they bring but every night the beam goes round and every night the boats are found.",
        ])
        // List items start their own line even when joining.
        let order = PlainTextReadingText.convert(RealTexts.runningOrder, lineBreaks: .join)
        #expect(lines(order).count == 5)
    }

    @Test func shortLinesAndListsInsideAWrappedFileKeepTheirBreak() {
        let full = Array(repeating: "word", count: 14).joined(separator: " ")   // 69 columns
        let text = [full, full, full, "a deliberately short line", full, "- an item", full, full, full, ""]
            .joined(separator: "\n")
        #expect(lines(auto(text)) == [
            "\(full) \(full) \(full) a deliberately short line"[...], full[...], "- an item", "\(full) \(full) \(full)", "",
        ])
    }

    @Test func aWordBrokenAtAHyphenIsMendedWithoutASpace() {
        let line = String(repeating: "text ", count: 13)
        let text = [line + "well-", "known " + line, line + "self-", "Made", line, line].joined(separator: "\n")
        let result = auto(text)
        #expect(result.contains("well-known"))
        #expect(result.contains("self- Made"))
    }

    @Test func listItemMarkers() {
        for item in ["- a", "* a", "+ a", "• a", "1. a", "12) a", "a) a", "(iv) a", "   3. a"] {
            #expect(PlainTextReadingText.startsListItem(item[...]), "\(item)")
        }
        for text in ["-a", "1.5 litres", "I am", "(not a list) yes", "A. Lincoln", "2024 was"] {
            #expect(!PlainTextReadingText.startsListItem(text[...]), "\(text)")
        }
    }
}

extension PlainTextLineBreakTests {
    /// `rig bench` reads its texts through the same function: they are written a
    /// paragraph per line (verse keeps its lines), so the rule leaves them alone and
    /// the bench figures stay comparable with earlier runs.
    @Test(arguments: ["devils-dictionary-10k.txt", "persian-gnome-help.txt", "chinese-gnome-help.txt"])
    func benchTextsAreLeftAsTheyAre(name: String) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("bench/texts/\(name)").path
        let text = try RealTexts.read(path)
        #expect(PlainTextReadingText.hardWrapWidth(of: text) == nil)
        #expect(auto(text) == text)
    }
}

extension PlainTextLineBreakTests {
    /// A hard-wrapped file that is one paragraph of 1,000 and of 8,000 lines joins in linear time.
    @Test func aLongWrappedParagraphJoinsInLinearTime() {
        let line = Array(repeating: "word", count: 14).joined(separator: " ")
        let paragraph = { (lines: Int) in Array(repeating: line, count: lines).joined(separator: "\n") }
        #expect(auto(paragraph(1_000)) == Array(repeating: line, count: 1_000).joined(separator: " "))
        let growth = LinearTime.growth(n: 1_000, make: paragraph) { _ = auto($0) }
        print("plain-text paragraph: \(growth)")
        #expect(growth.ratio < LinearTime.bound, "\(growth)")
    }
}
