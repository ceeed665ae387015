import Testing
@testable import Prompter

/// CommonMark's paragraph rules in the reading text: a single newline inside a
/// paragraph is a space; everything that ends a line in CommonMark still does.
@Suite struct MarkdownLineBreakTests {
    func plain(_ markdown: String) -> String { MarkdownReadingText.convert(markdown) }

    @Test func softBreaksJoinWithASpace() {
        #expect(plain("so the scroll stays smooth on\na small computer.") == "so the scroll stays smooth on a small computer.")
        #expect(plain("one\ntwo\nthree\n\nnext") == "one two three\n\nnext")
        // Indentation and trailing single spaces around a soft break are not read.
        #expect(plain("one \n   two") == "one two")
        #expect(plain("one\r\ntwo\r\n") == "one two\n")
    }

    @Test func hardBreaksStillBreak() {
        #expect(plain("Roses are red,  \nviolets are blue.") == "Roses are red,\nviolets are blue.")
        #expect(plain("Roses are red,\\\nviolets are blue.") == "Roses are red,\nviolets are blue.")
        // An escaped backslash is a character, not a break.
        #expect(plain("a path C:\\\\\nnext") == "a path C:\\ next")
        // A hard break at the end of a paragraph is nothing.
        #expect(plain("last line  ") == "last line")
    }

    @Test func headingsListsQuotesAndRulesStillBreak() {
        #expect(plain("text\n# Heading\nmore") == "text\nHeading\nmore")
        #expect(plain("Setext\nheading\n=======\nbody") == "Setext heading\nbody")
        #expect(plain("intro:\n- one\n- two\n  continued\n* three") == "intro:\n• one\n• two continued\n• three")
        #expect(plain("1. first\nwraps\n2. second\n10) tenth") == "1. first wraps\n2. second\n10) tenth")
        #expect(plain("text\n> quoted\n> still quoted\nlazy") == "text\nquoted still quoted lazy")
        #expect(plain("> one\n>\n> two") == "one\n\ntwo")
        #expect(plain("above\n***\nbelow") == "above\n\nbelow")
        #expect(plain("| a | b |\n| c | d |") == "| a | b |\n| c | d |")
    }

    @Test func onlyOrderedListsFromOneInterruptAParagraph() {
        // "1984." in running text is a year, as CommonMark has it.
        #expect(plain("It was the year\n1984. Nothing happened.") == "It was the year 1984. Nothing happened.")
        #expect(plain("Steps:\n1. open\n2. read") == "Steps:\n1. open\n2. read")
    }

    @Test func fencedBlocksKeepTheirLines() {
        #expect(plain("before\n```\nline one\nline two\n```\nafter\nmore") == "before\nline one\nline two\nafter more")
    }

    @Test func inlineMarkupMayCrossASoftBreak() {
        #expect(plain("an *emphasis that\nwraps* here") == "an emphasis that wraps here")
        #expect(plain("type `ls\n-la` now") == "type ls -la now")
        #expect(plain("see [the\nguide](x)") == "see the guide")
    }

    @Test func welcomeScriptHasOneLinePerParagraph() throws {
        let source = try String(contentsOfFile: RealTexts.welcome, encoding: .utf8)
        let lines = plain(source).split(separator: "\n", omittingEmptySubsequences: false)
        let paragraphs = source.components(separatedBy: "\n\n").filter { !$0.allSatisfy(\.isWhitespace) }
        #expect(lines.filter { !$0.isEmpty }.count == paragraphs.count)
        #expect(lines.contains("Every line here is laid out once and drawn from a cache, so the scroll stays smooth on "
            + "a small computer, even for a script of ten thousand words."))
        #expect(lines.last { !$0.isEmpty } == "When you reach the end, the text stops by itself. Press play to start again from the top.")
    }
}

extension MarkdownLineBreakTests {
    /// One paragraph of 250 and of 2,000 lines full of stray "<" and "[" (which start
    /// autolinks and links): joining and the inline pass stay linear in its length.
    @Test func aLongParagraphIsConvertedInLinearTime() {
        let paragraph = { (lines: Int) in Array(repeating: "if a < b then [see above", count: lines).joined(separator: "\n") }
        #expect(plain(paragraph(250)) == Array(repeating: "if a < b then [see above", count: 250).joined(separator: " "))
        // Linear: a third of a second for 5,000 lines in a debug build; copying the
        // paragraph per line and scanning from every "<" to its end took 26 s (quadratic).
        let growth = LinearTime.growth(n: 250, make: paragraph) { _ = plain($0) }
        print("markdown paragraph: \(growth)")
        #expect(growth.ratio < LinearTime.bound, "\(growth)")
    }
}
