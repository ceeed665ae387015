/// Where a prompter take is recorded. The kiosk's port records the camera and the
/// microphone with its recorder (`KioskTakeRecorder`); a stage without one (`rig
/// snapshot`, tests) keeps `NoTakeRecorder`, which refuses every take with its reason.
/// Called on the stage's thread; a take that ends by itself comes back as
/// `StageEvent.takeEnded`.
package protocol TakeRecorderPort: AnyObject {
    /// Why a take cannot start now (recording off, no camera picture, one running);
    /// nil when it can.
    var refusal: String? { get }
    /// Why a take started now would have no sound; nil when the microphone delivers.
    var soundProblem: String? { get }
    /// Starts recording now with these annotations in its JSON: the take's generation.
    func start(annotations: [String: String]) -> Result<Int, TakeRefusal>
    /// Ends the running take, adding these annotations: its generation.
    func finish(annotations: [String: String]) -> Result<Int, TakeRefusal>
    /// `recording` in `rig ctl status` (the stage adds the countdown).
    var status: [String: JSONValue] { get }
}

extension TakeRecorderPort {
    package var soundProblem: String? { nil }
}

/// Why the recorder refused, in the operator's words.
package struct TakeRefusal: Error, Equatable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

package final class NoTakeRecorder: TakeRecorderPort {
    package static let reason = "recording is off ([recording] enabled = false in rig.toml)"
    package init() {}
    package var refusal: String? { Self.reason }
    package func start(annotations: [String: String]) -> Result<Int, TakeRefusal> { .failure(TakeRefusal(Self.reason)) }
    package func finish(annotations: [String: String]) -> Result<Int, TakeRefusal> { .failure(TakeRefusal(Self.reason)) }
    package var status: [String: JSONValue] { ["state": "off"] }
}
