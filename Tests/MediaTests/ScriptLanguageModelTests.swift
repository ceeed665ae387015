import Foundation
import Media
import Testing

@Suite struct ScriptLanguageModelTests {
    /// Reads the ARPA text back: unigram (log p, backoff) and bigram log p.
    private func parse(_ arpa: String) -> (uni: [String: (Double, Double)], bi: [String: [String: Double]]) {
        var uni: [String: (Double, Double)] = [:]
        var bi: [String: [String: Double]] = [:]
        var section = ""
        for line in arpa.split(separator: "\n") {
            if line.hasPrefix("\\") { section = String(line); continue }
            let f = line.split(separator: " ")
            if section == "\\1-grams:", f.count >= 2 {
                uni[String(f[1])] = (Double(f[0]) ?? .nan, f.count > 2 ? Double(f[2]) ?? .nan : 0)
            } else if section == "\\2-grams:", f.count == 3 {
                bi[String(f[1]), default: [:]][String(f[2])] = Double(f[0]) ?? .nan
            }
        }
        return (uni, bi)
    }

    @Test func everyHistorySumsToOne() throws {
        let model = try ScriptLanguageModel(sentences: [["to", "be", "or", "not", "to", "be"], ["that", "is", "it"]])
        #expect(model.vocabulary == ["be", "is", "it", "not", "or", "that", "to"])
        let (uni, bi) = parse(model.arpa)
        #expect(model.arpa.contains("ngram 1=9"), Comment(rawValue: model.arpa))
        for history in ["<s>", "to", "be", "it"] {
            var total = 0.0
            for (word, entry) in uni where word != "<s>" {
                if let logp = bi[history]?[word] {
                    total += pow(10, logp)
                } else {
                    total += pow(10, (uni[history]?.1 ?? 0) + entry.0)
                }
            }
            #expect(abs((total) - (1)) <= 0.01, "history \(history)")
        }
        #expect(abs((pow(10, bi["to"]?["be"] ?? -99)) - (0.7)) <= 0.001, "to is always followed by be")
    }

    @Test func emptyScriptIsRefused() {
        #expect(throws: ListeningError.noWords) { try ScriptLanguageModel(sentences: [[], []]) }
    }

    @Test func dictionaryKeepsAlternativesAndGuessesUnknownWords() {
        let cmu = "read R EH D\nread(2) R IY D\nthe DH AH\nzebra Z IY B R AH\n"
        let dictionary = PronouncingDictionary(words: ["read", "the", "rigmarolex", "42"], cmuDictionary: cmu)
        #expect(dictionary.text.split(separator: "\n").sorted() == [
            "42 F AO R T UW", "read R EH D", "read(2) R IY D", "rigmarolex R IH G M AA R AA L EH K S", "the DH AH",
        ])
        #expect(dictionary.guessed == ["42", "rigmarolex"])
        #expect(LetterToSound.phones(for: "nation") == ["N", "AE", "SH", "AH", "N"])
        #expect(LetterToSound.phones(for: "make") == ["M", "AE", "K"])
    }

    @Test func otherLanguagesAreRefusedWithTheReason() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-lm-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let model = try ScriptLanguageModel(sentences: [["hallo", "welt"]])
            _ = try SpeechRecognizer(model: model, dictionary: PronouncingDictionary(words: [], cmuDictionary: ""),
                                     language: "de", folder: folder)
            Issue.record("German was accepted")
        } catch {
            #expect(error == .unsupportedLanguage("de"))
            #expect(error.description.contains("only English"), Comment(rawValue: error.description))
        }
    }
}
