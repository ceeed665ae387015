import Testing
@testable import Prompter

@Suite struct MarkdownReadingTextTests {
    func plain(_ markdown: String) -> String { MarkdownReadingText.convert(markdown) }

    @Test func headingsBecomeTheirText() {
        #expect(plain("# One\n## Two ##\n###### Six") == "One\nTwo\nSix")
        #expect(plain("#hashtag stays") == "#hashtag stays")
        #expect(plain("Title\n=====\nBody\n---") == "Title\nBody")
    }

    @Test func emphasisMarkersAreDropped() {
        #expect(plain("*one* **two** ***three*** _four_ __five__ ~~six~~") == "one two three four five six")
        #expect(plain("a **bold *nested* run** here") == "a bold nested run here")
    }

    @Test func literalStarsAndUnderscoresStay() {
        #expect(plain("2 * 3 = 6") == "2 * 3 = 6")
        #expect(plain("call snake_case_name now") == "call snake_case_name now")
        #expect(plain("5* rating") == "5* rating")
        #expect(plain("\\*not emphasis\\*") == "*not emphasis*")
    }

    @Test func linksAndImagesBecomeTheirText() {
        #expect(plain("Read [the guide](https://a.b/c_(d)) now") == "Read the guide now")
        #expect(plain("![a diagram](img.png)") == "a diagram")
        #expect(plain("See [docs][ref].\n[ref]: https://example.org") == "See docs.")
        #expect(plain("Mail <team@example.org>") == "Mail team@example.org")
        #expect(plain("[**bold link**](x)") == "bold link")
        #expect(plain("[just brackets]") == "[just brackets]")
    }

    @Test func codeQuotesAndListsAreReadable() {
        #expect(plain("Type `ls -la` here") == "Type ls -la here")
        #expect(plain("```swift\nlet x = 1\n```") == "let x = 1")
        #expect(plain("> quoted *line*") == "quoted line")
        #expect(plain("- first\n* second\n1. third") == "• first\n• second\n1. third")
        #expect(plain("a\n\n***\n\nb") == "a\n\n\n\nb")
    }
}

@Suite struct ReadingTimeTests {
    @Test func formatsMinutesAndSeconds() {
        #expect(ReadingTime.format(seconds: 270) == "4m 30s")
        #expect(ReadingTime.format(seconds: 45) == "0m 45s")
        #expect(ReadingTime.format(seconds: 3_725) == "62m 5s")
        #expect(ReadingTime.format(seconds: -3) == "0m 0s")
    }

    @Test func estimatesAtAConfigurableRate() {
        #expect(ReadingTime.defaultWordsPerMinute == 150)
        #expect(ReadingTime.label(words: 675) == "4m 30s")
        #expect(ReadingTime.label(words: 270, wordsPerMinute: 60) == "4m 30s")
        #expect(ReadingTime.seconds(words: 10, wordsPerMinute: 0) == 600)
    }

    @Test func countsWordsNotPunctuation() {
        #expect(ReadingTime.wordCount("Hello, world — again!") == 3)
        #expect(ReadingTime.wordCount("  \n\t ") == 0)
        #expect(ReadingTime.wordCount("") == 0)
        #expect(ReadingTime.wordCount("שלום עולם 2024 日本語") == 4)
        #expect(ReadingTime.wordCount("• item\n- dash") == 2)
    }
}
