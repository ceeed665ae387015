import JSON

/// The recordings' disk for the self-test: free space, what a minute of recording
/// takes at the configured quality, and what one crash-safe write costs there.
package struct StorageFacts: Equatable, Sendable {
    package var folder: String
    package var freeBytes: Int64
    package var totalBytes: Int64
    /// A minute of a take at rig.toml's [recording] settings (video and sound), estimated.
    package var bytesPerMinute: Int64
    /// What the recorder keeps free ([recording] min_free_mb): a take stops there.
    package var reservedBytes: Int64 = 0
    /// Median of a 1 MiB write and fsync in the folder; nil when it could not be written.
    package var syncSeconds: Double?
    package var writeProblem: String?

    package init(folder: String, freeBytes: Int64, totalBytes: Int64, bytesPerMinute: Int64, reservedBytes: Int64 = 0,
                 syncSeconds: Double?, writeProblem: String?) {
        self.folder = folder
        self.reservedBytes = reservedBytes
        self.freeBytes = freeBytes
        self.totalBytes = totalBytes
        self.bytesPerMinute = bytesPerMinute
        self.syncSeconds = syncSeconds
        self.writeProblem = writeProblem
    }
}

package struct StorageCheck {
    package var facts: StorageFacts
    package init(facts: StorageFacts) { self.facts = facts }

    /// Fewer minutes than these is a problem, then a warning: a party records a few
    /// dozen short attempts, a studio a morning of takes.
    static let problemMinutes = 10.0
    static let warningMinutes = 60.0
    /// An fsync slower than this can hold a take's fragment past the one second a power
    /// cut may lose.
    static let slowSync = 0.25

    package var minutes: Double {
        Double(max(0, facts.freeBytes - facts.reservedBytes)) / Double(max(1, facts.bytesPerMinute))
    }

    package var step: SelfTestStep {
        let gib = Double(facts.freeBytes) / 1_073_741_824
        var lines = [String(format: "%@: %.1f GiB free of %.1f GiB: about %.0f minutes of recording at this quality (%.0f MB kept free)",
                            facts.folder, gib, Double(facts.totalBytes) / 1_073_741_824, minutes,
                            Double(facts.reservedBytes) / 1_048_576)]
        var json: [String: JSONValue] = ["folder": .string(facts.folder), "free_bytes": .number(Double(facts.freeBytes)),
                                         "total_bytes": .number(Double(facts.totalBytes)),
                                         "minutes": .number(DisplayCheck.rounded(minutes, 0)),
                                         "bytes_per_minute": .number(Double(facts.bytesPerMinute))]
        json["reserved_bytes"] = .number(Double(facts.reservedBytes))
        json["sync_ms"] = facts.syncSeconds.map { .number(DisplayCheck.rounded($0 * 1000, 1)) } ?? .null
        if let sync = facts.syncSeconds { lines.append(String(format: "a 1 MiB write and fsync takes %.1f ms", sync * 1000)) }
        var finding: String?
        let step = { (verdict: SelfTestVerdict, fix: String?) in
            SelfTestStep(id: "storage", title: "Storage", verdict: verdict, lines: lines, fix: fix, finding: finding, figures: json)
        }
        if let problem = facts.writeProblem {
            lines.append("cannot write there: \(problem)")
            finding = lines.last
            let full = problem.contains("No space") || facts.freeBytes < facts.bytesPerMinute
            return step(.problem, full ? "The disk is full. Copy the clips to a USB stick from the Clips screen and delete them, or free space on \(facts.folder)."
                                       : "The kiosk cannot save recordings or its state: check \(facts.folder)'s owner and permissions.")
        }
        if facts.freeBytes < facts.reservedBytes {
            lines.insert(String(format: "the recorder keeps %.0f MB free and only %.0f MB are: no take can start",
                                Double(facts.reservedBytes) / 1_048_576, Double(facts.freeBytes) / 1_048_576), at: 0)
            return step(.problem, "Free space on \(facts.folder) (copy the clips to a USB stick from the Clips screen and delete them), or on a small disk lower [recording] min_free_mb.")
        }
        if minutes < Self.problemMinutes {
            lines.insert(String(format: "the disk is nearly full: %.0f minutes of recording left", minutes), at: 0)
            return step(.problem, "Copy the clips to a USB stick from the Clips screen and delete them, or free space on \(facts.folder).")
        }
        if minutes < Self.warningMinutes {
            return step(.warning, "Less than an hour of recording fits: export and delete old clips before a long session.")
        }
        if let sync = facts.syncSeconds, sync > Self.slowSync {
            finding = lines.last
            return step(.warning, "The disk is slow to make writes safe; a power cut could lose more than the last second of a take. An SSD or a faster USB stick fixes it.")
        }
        return step(.ok, nil)
    }
}
