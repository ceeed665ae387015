import Prompter
import Testing

@Suite struct WordAlignerTests {
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

    @Test func scriptWordsCountLikeTheWordCountAndSplitSpokenTokens() {
        let text = "Free-software — it's \"GNU's\" (end.) 2 x"
        let words = ScriptWords(text)
        #expect(words.words.count == ReadingTime.wordCount(text))
        #expect(words.tokens == ["free", "software", "it's", "gnu's", "end", "2", "x"])
        #expect(words.tokenWord == [0, 0, 1, 2, 3, 4, 5])
        #expect(words.words[3].endsSentence)
        #expect(ScriptWords("One. Two three! Four").sentences == [["one"], ["two", "three"], ["four"]])
    }

    @Test func readingInOrderTracksEachWord() {
        var aligner = WordAligner(tokens: script.tokens)
        var heard: [String] = []
        for (n, token) in script.tokens.prefix(20).enumerated() {
            heard.append(token)
            aligner.update(heard: heard, tokenWord: script.tokenWord)
            #expect(aligner.position?.token == n, "after \"\(token)\"")
        }
        #expect(abs((aligner.position?.confidence ?? 0) - (1)) <= 1e-9)
    }

    @Test func skippedWordsLandAfterTheSkip() {
        // "insure domestic tranquility" (16...18) never said.
        let aligner = follow(words(0...15) + words(19...24))
        #expect(aligner.position?.token == 24)
        #expect(aligner.position?.confidence ?? 0 > 0.7)
    }

    @Test func repeatedPhraseGoesBackToIt() {
        // "...to form a more perfect, form a more": three words re-read.
        let aligner = follow(words(0...13) + words(10...12))
        #expect(aligner.position?.token == 12)
    }

    @Test func substitutedWordStillAdvances() {
        var heard = words(0...20)
        heard[17] = "tranquil"
        let aligner = follow(heard)
        #expect(aligner.position?.token == 20)
    }

    @Test func adLibHoldsThenContinues() {
        let before = follow(words(0...12))
        #expect(before.position?.token == 12)
        let during = follow(["well", "you", "know", "folks"], from: before)
        #expect(during.position?.token == 12, "an ad-lib moves nothing")
        let after = follow(words(13...17), from: during)
        #expect(after.position?.token == 17)
    }

    @Test func oneMisheardEarlierWordDoesNotMoveBack() {
        let before = follow(words(0...24))
        // "the" and "people" are at 1-2: a stray word heard now must not pull the position back.
        let after = follow(["people"], from: before)
        #expect(after.position?.token == 24)
    }

    @Test func distantSimilarPhraseNeedsStrongEvidence() {
        // "the united states" is at 4...6 and again near the end: two words heard early stay early.
        let start = follow(words(0...3))
        let near = follow(["the", "united"], from: start)
        #expect(near.position?.token == 5)
        // A whole run from the second sentence, far outside the window, is strong evidence.
        let far = script.tokens.count - 1
        let jumped = follow(words((far - 7)...far), from: WordAligner(tokens: script.tokens))
        #expect(jumped.position?.token == far)
    }
}

extension WordAlignerTests {
    /// The operator jumped: the aligner searches around the new place and finds the
    /// talent there from their first words.
    @Test func anAnchorMovesTheSearchToTheOperatorsPlace() {
        var aligner = follow(words(0...6))
        let later = script.tokens.count - 8
        aligner.anchor(token: later, tokenWord: script.tokenWord)
        #expect(aligner.position?.token == later)
        aligner.update(heard: words(later...(later + 1)), tokenWord: script.tokenWord)
        #expect(aligner.position?.token == later + 1)
    }
}
