import Prompter
import XCTest

final class WordAlignerTests: XCTestCase {
    // Public-domain text (the US constitution's preamble), two sentences that share words.
    let script = ScriptWords("""
        We the People of the United States, in Order to form a more perfect Union, establish Justice, \
        insure domestic Tranquility, provide for the common defence, promote the general Welfare. \
        And secure the Blessings of Liberty to ourselves and our Posterity, do ordain and establish \
        this Constitution for the United States of America.
        """)

    /// Feeds the heard words one at a time, as the recogniser delivers them.
    private func follow(_ heard: [String], from aligner: WordAligner? = nil) -> WordAligner {
        var aligner = aligner ?? WordAligner(tokens: script.tokens)
        var so: [String] = []
        for word in heard {
            so.append(word)
            aligner.update(heard: so, tokenWord: script.tokenWord)
        }
        return aligner
    }

    private func words(_ range: ClosedRange<Int>) -> [String] { Array(script.tokens[range]) }

    func testScriptWordsCountLikeTheWordCountAndSplitSpokenTokens() {
        let text = "Free-software — it's \"GNU's\" (end.) 2 x"
        let words = ScriptWords(text)
        XCTAssertEqual(words.words.count, ReadingTime.wordCount(text))
        XCTAssertEqual(words.tokens, ["free", "software", "it's", "gnu's", "end", "2", "x"])
        XCTAssertEqual(words.tokenWord, [0, 0, 1, 2, 3, 4, 5])
        XCTAssertTrue(words.words[3].endsSentence)
        XCTAssertEqual(ScriptWords("One. Two three! Four").sentences, [["one"], ["two", "three"], ["four"]])
    }

    func testReadingInOrderTracksEachWord() {
        var aligner = WordAligner(tokens: script.tokens)
        var heard: [String] = []
        for (n, token) in script.tokens.prefix(20).enumerated() {
            heard.append(token)
            aligner.update(heard: heard, tokenWord: script.tokenWord)
            XCTAssertEqual(aligner.position?.token, n, "after \"\(token)\"")
        }
        XCTAssertEqual(aligner.position?.confidence ?? 0, 1, accuracy: 1e-9)
    }

    func testSkippedWordsLandAfterTheSkip() {
        // "insure domestic tranquility" (16...18) never said.
        let aligner = follow(words(0...15) + words(19...24))
        XCTAssertEqual(aligner.position?.token, 24)
        XCTAssertGreaterThan(aligner.position?.confidence ?? 0, 0.7)
    }

    func testRepeatedPhraseGoesBackToIt() {
        // "...to form a more perfect, form a more": three words re-read.
        let aligner = follow(words(0...13) + words(10...12))
        XCTAssertEqual(aligner.position?.token, 12)
    }

    func testSubstitutedWordStillAdvances() {
        var heard = words(0...20)
        heard[17] = "tranquil"
        let aligner = follow(heard)
        XCTAssertEqual(aligner.position?.token, 20)
    }

    func testAdLibHoldsThenContinues() {
        let before = follow(words(0...12))
        XCTAssertEqual(before.position?.token, 12)
        let during = follow(["well", "you", "know", "folks"], from: before)
        XCTAssertEqual(during.position?.token, 12, "an ad-lib moves nothing")
        let after = follow(words(13...17), from: during)
        XCTAssertEqual(after.position?.token, 17)
    }

    func testOneMisheardEarlierWordDoesNotMoveBack() {
        let before = follow(words(0...24))
        // "the" and "people" are at 1-2: a stray word heard now must not pull the position back.
        let after = follow(["people"], from: before)
        XCTAssertEqual(after.position?.token, 24)
    }

    func testDistantSimilarPhraseNeedsStrongEvidence() {
        // "the united states" is at 4...6 and again near the end: two words heard early stay early.
        let start = follow(words(0...3))
        let near = follow(["the", "united"], from: start)
        XCTAssertEqual(near.position?.token, 5)
        // A whole run from the second sentence, far outside the window, is strong evidence.
        let far = script.tokens.count - 1
        let jumped = follow(words((far - 7)...far), from: WordAligner(tokens: script.tokens))
        XCTAssertEqual(jumped.position?.token, far)
    }
}
