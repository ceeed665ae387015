import Foundation

/// Voice follow as the console shows it, handed in by the kiosk (`StageEvent.follow`)
/// whenever it changes: the stage draws it and knows nothing of the listening.
package struct FollowShown: Equatable, Sendable {
    /// waiting, tracking, holding, lost (the driver's mode), or "starting" before the model is ready.
    package var mode: String
    /// The follow's confidence in the current position, 0-1.
    package var confidence: Double
    /// The last recognised words, oldest first.
    package var heard: String
    /// Why listening failed, if it did.
    package var problem: String?
    /// Lines the reading line runs ahead of the voice (the speed keys' doing while following).
    package var lead: Double

    package init(mode: String, confidence: Double, heard: String, problem: String? = nil, lead: Double = 0) {
        self.mode = mode
        self.confidence = confidence
        self.heard = heard
        self.problem = problem
        self.lead = lead
    }

    /// "Follow (English): 82 % · tracking · heard “the quick brown fox”": the confidence
    /// first, so a narrow console keeps it when the heard words are cut.
    package var line: String {
        var parts = ["Follow (English): \(Int((min(max(confidence, 0), 1) * 100).rounded())) %", mode]
        if lead != 0 { parts.append(String(format: "lead %+.1f line%@", lead, abs(lead) == 1 ? "" : "s")) }
        parts.append(heard.isEmpty ? "nothing heard yet" : "heard \u{201C}\(heard)\u{201D}")
        if let problem { parts.append(problem) }
        return parts.joined(separator: " · ")
    }
}
