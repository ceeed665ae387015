import Foundation

/// One unmet condition for Send. The dashboard lists them next to a disabled Send.
public enum SendBlocker: Equatable, Hashable, Sendable, CustomStringConvertible {
    case noActionSelected
    /// The selected card is no longer offered (groups or seated filter changed).
    case actionNotAvailable(String)
    case noConsent(player: String)
    case noCamera
    case cameraNotStreaming
    case outerDisplayDisabled
    case outerDisplayUnavailable
    case outerDisplayNotPresenting
    case unresolvedReview
    /// Send is not on offer in this phase (an attempt runs, or a retry or Next is due).
    case phase(GamePhase)
    case gameEnded
    /// Lead-in + estimated speech + response + tail exceeds the 20 s bound.
    case recordingTooLong(seconds: Double)

    public var description: String {
        switch self {
        case .noActionSelected: "Select an action"
        case .actionNotAvailable(let id): "The action \(id) is not in play with these settings"
        case .noConsent(let player): "\(player) has not agreed to be recorded"
        case .noCamera: "No camera is selected"
        case .cameraNotStreaming: "The camera is not streaming"
        case .outerDisplayDisabled: "The participant's display is turned off"
        case .outerDisplayUnavailable: "The participant's display is not connected"
        case .outerDisplayNotPresenting: "The participant's display is not showing the game yet"
        case .unresolvedReview: "Judge the last attempt first"
        case .phase(let phase): "Not possible while the game is in \(phase.rawValue)"
        case .gameEnded: "The game has ended"
        case .recordingTooLong(let seconds):
            "The recording would last about \(InterruptionReason.format(seconds)) s; the bound is 20 s. Shorten the response window or speed up the speech"
        }
    }
}
