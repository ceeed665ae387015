/// Debian's order of package versions (deb-version(7)), as `dpkg --compare-versions`
/// has it: epoch, then the upstream version, then the revision, each compared in runs
/// of non-digits (letters before other characters, `~` before everything, even the end)
/// and runs of digits by their value. The kiosk compares versions itself: it runs under
/// a system-call filter where starting dpkg is not worth a process per stick.
enum DebianVersion {
    /// Whether `a` is newer than `b`.
    static func isNewer(_ a: String, than b: String) -> Bool { compare(a, b) > 0 }

    /// Negative, zero or positive as `a` is older than, the same as or newer than `b`.
    static func compare(_ a: String, _ b: String) -> Int {
        let (left, right) = (parts(a), parts(b))
        if left.epoch != right.epoch { return left.epoch < right.epoch ? -1 : 1 }
        let upstream = compareRuns(Array(left.upstream.utf8), Array(right.upstream.utf8))
        return upstream != 0 ? upstream : compareRuns(Array(left.revision.utf8), Array(right.revision.utf8))
    }

    private static func parts(_ version: String) -> (epoch: Int, upstream: Substring, revision: Substring) {
        var rest = Substring(version)
        var epoch = 0
        if let colon = rest.firstIndex(of: ":") {
            epoch = Int(rest[..<colon]) ?? 0
            rest = rest[rest.index(after: colon)...]
        }
        if let dash = rest.lastIndex(of: "-") {
            return (epoch, rest[..<dash], rest[rest.index(after: dash)...])
        }
        return (epoch, rest, "")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// A character's weight in a non-digit run: the end and digits 0, `~` below them,
    /// letters by their code, anything else after every letter.
    private static func weight(_ byte: UInt8?) -> Int {
        guard let byte, !isDigit(byte) else { return 0 }
        if byte == UInt8(ascii: "~") { return -1 }
        let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        return isLetter ? Int(byte) : Int(byte) + 256
    }

    private static func compareRuns(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            // A run of non-digits, character by character.
            while (i < a.count && !isDigit(a[i])) || (j < b.count && !isDigit(b[j])) {
                let (x, y) = (weight(i < a.count ? a[i] : nil), weight(j < b.count ? b[j] : nil))
                if x != y { return x < y ? -1 : 1 }
                i += 1
                j += 1
            }
            // A run of digits, by value: leading zeros skipped, then the longer run is larger.
            while i < a.count && a[i] == UInt8(ascii: "0") { i += 1 }
            while j < b.count && b[j] == UInt8(ascii: "0") { j += 1 }
            var first = 0
            while i < a.count && isDigit(a[i]) && j < b.count && isDigit(b[j]) {
                if first == 0 { first = Int(a[i]) - Int(b[j]) }
                i += 1
                j += 1
            }
            if i < a.count && isDigit(a[i]) { return 1 }
            if j < b.count && isDigit(b[j]) { return -1 }
            if first != 0 { return first < 0 ? -1 : 1 }
        }
        return 0
    }
}
