import Game

/// Where the game's recording effects go. The kiosk's port records attempts with its
/// recorder (`KioskGameRecording`); a stage without one (`rig snapshot`, tests) keeps
/// `UnavailableGameRecording`: a recording-on setup lists its reason among the
/// readiness conditions and Send stays off; a non-recording game plays.
package protocol GameRecordingPort: AnyObject {
    /// Why recording cannot start now; nil when it can.
    var unavailableReason: String? { get }
    /// Why a recording would have no sound (no microphone configured, none delivering);
    /// nil when the microphone delivers. A game that records sound is not ready then.
    var soundProblem: String? { get }
    func start(generation: UInt64, attempt: Int)
    func stop(generation: UInt64)
    func cancel(generation: UInt64)
    func discard(attempt: Int)
    func delete(attempt: Int, file: String)
    /// After every change of the session (a verdict, a correction, an attempt's times),
    /// so the port keeps its attempts' metadata current. `id` names the game session.
    func sessionChanged(_ session: GameSession, id: String)
    /// What holds an attempt's files now ("replay", "export"): a delete of them waits
    /// until it lets go. Empty when nothing does.
    func mediaInUse(_ file: String) -> [String]
}

extension GameRecordingPort {
    package var soundProblem: String? { nil }
    package func sessionChanged(_ session: GameSession, id: String) {}
    package func mediaInUse(_ file: String) -> [String] { [] }
}

package final class UnavailableGameRecording: GameRecordingPort {
    package static let reason = "recording not available in this build"
    package init() {}
    package var unavailableReason: String? { Self.reason }
    package func start(generation: UInt64, attempt: Int) {}
    package func stop(generation: UInt64) {}
    package func cancel(generation: UInt64) {}
    package func discard(attempt: Int) {}
    package func delete(attempt: Int, file: String) {}
}
