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

    package init(mode: String, confidence: Double, heard: String, problem: String? = nil) {
        self.mode = mode
        self.confidence = confidence
        self.heard = heard
        self.problem = problem
    }

    /// "Follow (English): 82 % · tracking · heard “the quick brown fox”": the confidence
    /// first, so a narrow console keeps it when the heard words are cut.
    package var line: String {
        var parts = ["Follow (English): \(Int((min(max(confidence, 0), 1) * 100).rounded())) %", mode]
        parts.append(heard.isEmpty ? "nothing heard yet" : "heard \u{201C}\(heard)\u{201D}")
        if let problem { parts.append(problem) }
        return parts.joined(separator: " · ")
    }
}
