import JSON

/// Whether the system clock is kept by a time server (chrony), so recordings and logs
/// carry the right time and follower rigs can agree.
package struct ClockFacts: Equatable, Sendable {
    /// The kernel's view (adjtimex): a time daemon has synchronised the clock.
    package var synchronised: Bool
    /// Its estimated error, seconds, when synchronised.
    package var estimatedError: Double?
    /// chronyd is installed.
    package var chrony: Bool

    package init(synchronised: Bool, estimatedError: Double?, chrony: Bool) {
        self.synchronised = synchronised
        self.estimatedError = estimatedError
        self.chrony = chrony
    }

    package var step: SelfTestStep {
        var json: [String: JSONValue] = ["synchronised": .bool(synchronised), "chrony": .bool(chrony)]
        json["estimated_error_ms"] = estimatedError.map { .number(DisplayCheck.rounded($0 * 1000, 3)) } ?? .null
        if synchronised {
            let error = estimatedError.map { String(format: " (estimated error %.1f ms)", $0 * 1000) } ?? ""
            return SelfTestStep(id: "clock", title: "Clock", verdict: .ok, lines: ["the clock is synchronised\(error)"], figures: json)
        }
        let lines = ["the clock is not synchronised to a time server" + (chrony ? " (chrony is installed)" : " (no chrony)")]
        return SelfTestStep(id: "clock", title: "Clock", verdict: .warning, lines: lines,
                            fix: chrony ? "chrony has not reached a time server: connect the rig to a network, or point chrony at a local server (README: Time)."
                                        : "Install chrony (apt install chrony) so recordings carry the right date and times.",
                            figures: json)
    }
}
