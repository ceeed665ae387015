import Foundation

/// Names in the library: validation and the file-manager style unique names
/// ("Untitled 2", "Demo copy", "Demo copy 2").
enum ScriptNaming {
    static let untitled = "Untitled"

    /// A title or folder name that is safe as one path component, trimmed.
    static func validated(_ raw: String) throws(ScriptLibraryError) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { throw .invalidName(raw, reason: "it is empty") }
        if name.contains("/") { throw .invalidName(raw, reason: "it contains \"/\"") }
        if name.hasPrefix(".") { throw .invalidName(raw, reason: "it starts with \".\" (hidden files are not listed)") }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalidName(raw, reason: "it contains control characters")
        }
        // ext4 allows 255 bytes per name; leave room for ".md" and a " 99" suffix.
        if name.utf8.count > 240 { throw .invalidName(raw, reason: "it is longer than 240 bytes") }
        return name
    }

    /// `base`, then "base 2", "base 3", … : the first that `isTaken` rejects not.
    static func unique(_ base: String, isTaken: (String) -> Bool) -> String {
        if !isTaken(base) { return base }
        var n = 2
        while isTaken("\(base) \(n)") { n += 1 }
        return "\(base) \(n)"
    }

    /// The duplicate's title: "Demo copy", "Demo copy 2", … Duplicating a copy counts on
    /// from its stem ("Demo copy" → "Demo copy 2"), as file managers do.
    static func copyName(of title: String, isTaken: (String) -> Bool) -> String {
        let stem = copyStem(of: title) ?? "\(title) copy"
        return unique(stem, isTaken: isTaken)
    }

    /// "Demo copy" for "Demo copy" and "Demo copy 7"; nil when the title is no copy.
    private static func copyStem(of title: String) -> String? {
        if title.hasSuffix(" copy") { return title }
        guard let space = title.lastIndex(of: " ") else { return nil }
        let number = title[title.index(after: space)...]
        let head = title[..<space]
        guard !number.isEmpty, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber),
              head.hasSuffix(" copy") else { return nil }
        return String(head)
    }
}
