@testable import Stage

/// A recorder that takes every take at once and remembers what it was asked, so a
/// test runs the stage's countdown and REC mark without a camera or an encoder.
final class FakeTakeRecorder: TakeRecorderPort {
    private(set) var started: [[String: String]] = []
    private(set) var finished: [[String: String]] = []
    private var running: Int?
    /// What the recorder says of the microphone (nil: it delivers).
    var soundProblem: String?

    var refusal: String? { running.map { "a take is already running (generation \($0)); stop it first" } }

    func start(annotations: [String: String]) -> Result<Int, TakeRefusal> {
        started.append(annotations)
        running = started.count
        return .success(started.count)
    }

    func finish(annotations: [String: String]) -> Result<Int, TakeRefusal> {
        guard let generation = running else { return .failure(TakeRefusal("no take is running")) }
        finished.append(annotations)
        running = nil
        return .success(generation)
    }

    var status: [String: JSONValue] { ["state": running == nil ? "idle" : "recording"] }
}

extension ManualClockStage {
    /// Record pressed now with a recorder that always records: the countdown runs
    /// from now (`[recording] countdown`, 3 s unless the settings say otherwise).
    @discardableResult
    func pressRecord() -> FakeTakeRecorder {
        let recorder = stage.takes.recorder as? FakeTakeRecorder ?? FakeTakeRecorder()
        stage.takes.recorder = recorder
        _ = stage.handle(.record(start: true))
        return recorder
    }
}
