import Foundation

/// Text made safe for espeak-ng. Upstream, some characters corrupt what follows them
/// for the rest of the process (U+FFFD, espeak-ng #859; Javanese, Cherokee and other
/// scripts it has no rules for, #915 and #950), and decomposed accents are read as
/// plain letters (#1555). So the text is NFC-normalized, and every scalar outside the
/// scripts the rig speaks (Latin, Greek, Cyrillic, with their punctuation, digits and
/// currency signs) becomes a space: one scalar for one, so nothing shifts. Control
/// and format characters become spaces too; newlines and tabs stay word breaks.
public struct SpeechText: Sendable, Equatable {
    /// About ten minutes of speech at the normal rate; an instruction is a sentence.
    /// Much more is a mistake (a whole file pasted), not something to read out.
    public static let maxCharacters = 10_000

    /// The cleaned text, what espeak-ng receives.
    public let text: String
    /// How many scalars were replaced by a space.
    public let replaced: Int

    public init(_ raw: String) throws(SpeechError) {
        let scalarCount = raw.unicodeScalars.count
        guard scalarCount <= Self.maxCharacters else {
            throw .textTooLong(characters: scalarCount, limit: Self.maxCharacters)
        }
        var out = String.UnicodeScalarView()
        var replaced = 0
        for scalar in raw.precomposedStringWithCanonicalMapping.unicodeScalars {
            if Self.isSpeakable(scalar) {
                out.append(scalar)
            } else {
                out.append(" ")
                if scalar != "\n" && scalar != "\t" { replaced += 1 }
            }
        }
        let text = String(out)
        guard text.contains(where: { $0.isLetter || $0.isNumber }) else { throw .nothingToSay }
        self.text = text
        self.replaced = replaced
    }

    static func isSpeakable(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator:
            return false
        default: break
        }
        if scalar.properties.isNoncharacterCodePoint { return false }
        return allowedRanges.contains { $0.contains(value) }
    }

    private static let allowedRanges: [ClosedRange<UInt32>] = [
        0x0020...0x007E,  // Basic Latin, printable
        0x00A0...0x024F,  // Latin-1 Supplement, Latin Extended-A and -B
        0x0300...0x036F,  // combining marks NFC could not fold
        0x0370...0x03FF,  // Greek
        0x0400...0x04FF,  // Cyrillic
        0x1E00...0x1EFF,  // Latin Extended Additional (Vietnamese and more)
        0x2010...0x2027,  // dashes, quotes, ellipsis
        0x2030...0x205E,  // per mille, primes, more punctuation
        0x20A0...0x20C0,  // currency signs
    ]
}
