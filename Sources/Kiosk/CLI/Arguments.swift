import Stage

/// The words after the subcommand, taken off as each option is read, so whatever is
/// left at the end is a mistake to report.
package struct Arguments {
    package private(set) var words: [String]

    package init(_ words: [String]) { self.words = words }

    /// `--json`: true if present.
    package mutating func flag(_ name: String) -> Bool {
        guard let index = words.firstIndex(of: name) else { return false }
        words.remove(at: index)
        return true
    }

    /// `--config PATH` or `--config=PATH`; the last one wins.
    package mutating func option(_ name: String) throws(CLIError) -> String? {
        try options(name).last
    }

    /// Every `--set K=V`, in order.
    package mutating func options(_ name: String) throws(CLIError) -> [String] {
        var values: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == name {
                guard index + 1 < words.count else { throw .usage("\(name) needs a value") }
                values.append(words[index + 1])
                words.removeSubrange(index...index + 1)
            } else if word.hasPrefix(name + "=") {
                values.append(String(word.dropFirst(name.count + 1)))
                words.remove(at: index)
            } else {
                index += 1
            }
        }
        return values
    }

    /// The next word that is not an option.
    package mutating func positional() -> String? {
        guard let index = words.firstIndex(where: { !$0.hasPrefix("--") }) else { return nil }
        return words.remove(at: index)
    }

    /// Fails on anything no one asked for.
    package func finish() throws(CLIError) {
        if let first = words.first { throw .usage("unexpected argument '\(first)'") }
    }
}

/// A failure the CLI reports in one line and turns into exit status 2.
package enum CLIError: Error, CustomStringConvertible {
    case usage(String)
    case failed(String)

    package var description: String {
        switch self {
        case let .usage(message): message
        case let .failed(message): message
        }
    }
}
