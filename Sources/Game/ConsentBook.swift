import Foundation

/// Who has agreed to be recorded in this run, and who chose to play without being
/// recorded. Kept per player, and deliberately never saved: after a cold start
/// everyone is asked again before recording resumes.
public struct ConsentBook: Equatable, Sendable {
    /// A player's answer on the consent screen.
    public enum Answer: Equatable, Sendable {
        /// Agreed to camera and microphone recording (wall-clock time).
        case agreed(at: Double)
        /// Plays, but their attempts are not recorded (wall-clock time).
        case withoutRecording(at: Double)
    }

    private var answers: [String: Answer] = [:]

    public init() {}

    /// Records agreement (with its wall-clock time) or withdrawal. A withdrawal leaves
    /// the player unasked: Send waits until they are asked again.
    public mutating func record(_ player: String, agreed: Bool, at time: Double) {
        answers[player] = agreed ? .agreed(at: time) : nil
    }

    /// The non-recording choice: the player plays, the camera is not recorded for them.
    public mutating func recordWithoutRecording(_ player: String, at time: Double) {
        answers[player] = .withoutRecording(at: time)
    }

    public func answer(_ player: String) -> Answer? { answers[player] }

    public func hasAgreed(_ player: String) -> Bool {
        if case .agreed = answers[player] { return true }
        return false
    }

    /// The player chose to play without being recorded.
    public func playsWithoutRecording(_ player: String) -> Bool {
        if case .withoutRecording = answers[player] { return true }
        return false
    }

    /// When the player agreed, for the record.
    public func agreedAt(_ player: String) -> Double? {
        if case let .agreed(time) = answers[player] { return time }
        return nil
    }
}
