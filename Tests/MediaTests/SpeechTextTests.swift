import Testing
@testable import Media

@Suite struct SpeechTextTests {
    @Test func controlAndFormatCharactersBecomeSpaces() throws {
        let text = try SpeechText("Say\u{7} hi\u{200B}there\nnow\u{FEFF}")
        #expect(text.text == "Say  hi there now ")
        #expect(text.replaced == 3)
    }

    /// Scripts espeak-ng corrupts its state on (upstream #859, #915, #950) never reach it,
    /// and one scalar is replaced by one space so word offsets stay put.
    @Test func unusualUnicodeIsReplacedOneForOne() throws {
        let raw = "Testing \u{A992}\u{A9A9}\u{A9BC} and \u{13AF} and \u{FFFD} and 🎄 done"
        let text = try SpeechText(raw)
        #expect(text.text == "Testing     and   and   and   done")
        #expect(text.text.unicodeScalars.count == raw.unicodeScalars.count)
        #expect(text.replaced == 6)
    }

    @Test func decomposedAccentsAreComposed() throws {
        let text = try SpeechText("ha\u{0308}lt")
        #expect(text.text == "hält")
    }

    @Test func europeanScriptsStay() throws {
        let raw = "Ça va? Ελληνικά, русский, “quoted” – 5 €"
        #expect(try SpeechText(raw).text == raw)
    }

    @Test func emptyAndOverlongTextsAreRefused() {
        #expect(throws: SpeechError.nothingToSay) { try SpeechText("") }
        #expect(throws: SpeechError.nothingToSay) { try SpeechText(" ... !? ") }
        #expect(throws: SpeechError.textTooLong(characters: 10_001, limit: 10_000)) {
            try SpeechText(String(repeating: "a", count: 10_001))
        }
        #expect(SpeechError.textTooLong(characters: 10_001, limit: 10_000).description
            == "text too long to speak: 10001 characters, at most 10000")
    }
}
