import Foundation

/// The recogniser's dictionary restricted to the script's words: their entries (with
/// alternative pronunciations, "word(2)") from the installed CMU dictionary, and
/// `LetterToSound` guesses for the words it lacks. A small dictionary is both faster
/// and what keeps the decoder from hearing words the script does not have.
public struct PronouncingDictionary: Sendable, Equatable {
    /// The dictionary file's text, one "word PH ON ES" a line.
    public let text: String
    /// Words that got a spelling-rule guess (reported, so an operator can see them).
    public let guessed: [String]

    public init(words: [String], cmuDictionary: String) {
        let wanted = Set(words)
        var entries: [String: [String]] = [:]
        for line in cmuDictionary.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let space = line.firstIndex(of: " ") else { continue }
            let head = line[..<space]
            let base = head.firstIndex(of: "(").map { String(head[..<$0]) } ?? String(head)
            guard wanted.contains(base) else { continue }
            entries[base, default: []].append(line.dropFirst(head.count).trimmingCharacters(in: .whitespaces))
        }
        var lines: [String] = []
        var guessed: [String] = []
        for word in wanted.sorted() {
            var pronunciations = entries[word] ?? []
            if pronunciations.isEmpty {
                let phones = LetterToSound.phones(for: word)
                guard !phones.isEmpty else { continue }
                pronunciations = [phones.joined(separator: " ")]
                guessed.append(word)
            }
            for (n, phones) in pronunciations.enumerated() {
                lines.append((n == 0 ? word : "\(word)(\(n + 1))") + " " + phones)
            }
        }
        text = lines.joined(separator: "\n") + "\n"
        self.guessed = guessed
    }
}

extension PronouncingDictionary {
    public static let installedPath = SpeechRecognizer.modelFolder + "/cmudict-en-us.dict"

    /// The script's dictionary from the installed CMU dictionary (pocketsphinx-en-us).
    public static func installed(words: [String]) throws(ListeningError) -> PronouncingDictionary {
        guard let data = FileManager.default.contents(atPath: installedPath) else {
            throw .modelMissing(path: installedPath)
        }
        return PronouncingDictionary(words: words, cmuDictionary: String(decoding: data, as: UTF8.self))
    }
}
