import Foundation
import Prompter

/// Prompter takes as the rig runs them: Record (the console's button, the record key,
/// `rig ctl record start`) counts down `[recording] countdown` seconds on both displays,
/// then records camera and microphone through the recorder port while the talent
/// reads; Stop ends the take, or cancels the countdown. The take's JSON keeps the script,
/// the position range and the reading settings. The operator pressing Record is the
/// consent: nothing records otherwise.
package final class PrompterTakes {
    /// What both displays show of the take now.
    package private(set) var indicator = TakeIndicator.none
    package var recorder: any TakeRecorderPort = NoTakeRecorder()
    /// Seconds of countdown before a take starts (0: at once).
    private let countdown: Double
    private let controller: PrompterController
    private let problems: ProblemBoard
    private let now: () -> Double
    private let schedule: (Double, @escaping () -> Void) -> Void
    /// Bumped by every countdown and its cancel: a countdown's timer that finds another
    /// number does nothing.
    private var countdownNumber = 0
    /// Called when the indicator changed: both displays draw it.
    var onChange: () -> Void = {}

    init(countdown: Int, controller: PrompterController, problems: ProblemBoard, now: @escaping () -> Double,
         schedule: @escaping (Double, @escaping () -> Void) -> Void) {
        self.countdown = Double(countdown)
        self.controller = controller
        self.problems = problems
        self.now = now
        self.schedule = schedule
    }

    package var isActive: Bool { indicator.isActive }

    /// `rig ctl record start|stop`; the console's button and the key come here too.
    func record(start: Bool) -> ControlReply {
        start ? startTake() : stopTake()
    }

    /// The key and the button: Record, or Stop when a take (or its countdown) runs. A
    /// refusal is a banner line, since nobody reads a reply.
    func toggle() {
        let reply = record(start: !isActive).body
        if reply["ok"]?.boolValue != true, let message = reply["error"]?.stringValue {
            show(problem: "Recording: \(message)")
        }
    }

    /// The recorder ended a take by itself (the camera lost, the disk full) or after
    /// Stop: the displays drop the REC mark, and the banner says why until the next take.
    func ended(message: String?) {
        set(.none)
        show(problem: message)
    }

    /// `recording` in `rig ctl status`: the recorder's, with the countdown's state.
    var status: JSONValue {
        var fields = recorder.status
        if case let .countdown(endsAt) = indicator {
            fields["state"] = "countdown"
            fields["countdown_remaining"] = .number(max(0, endsAt - now()))
        }
        return .object(fields)
    }

    private func startTake() -> ControlReply {
        if case .countdown = indicator { return .failure("the countdown is already running") }
        if let refusal = recorder.refusal { return .failure(refusal) }
        guard countdown > 0 else { return begin() }
        // Said before the countdown, while the operator can still fix it or stop.
        show(problem: silentTakeNote)
        let endsAt = now() + countdown
        countdownNumber += 1
        let number = countdownNumber
        schedule(endsAt) { [weak self] in
            guard let self, number == self.countdownNumber, case .countdown = self.indicator else { return }
            let reply = self.begin().body
            if reply["ok"]?.boolValue != true, let message = reply["error"]?.stringValue {
                self.set(.none)
                self.show(problem: "Recording did not start: \(message)")
            }
        }
        set(.countdown(endsAt: endsAt))
        return .success(["state": "countdown", "seconds": .number(countdown), "sound": soundField])
    }

    private func begin() -> ControlReply {
        let time = now()
        var annotations: [String: String] = [
            "script": controller.script?.id ?? "",
            "script_title": controller.script?.title ?? "",
            "position_start": String(format: "%.1f", controller.engine.offset(at: time)),
            "speed": "\(controller.engine.speed)",
        ]
        if let data = try? JSONEncoder().encode(controller.settings), let text = String(data: data, encoding: .utf8) {
            annotations["reading_settings"] = text
        }
        switch recorder.start(annotations: annotations) {
        case let .success(generation):
            show(problem: silentTakeNote)
            set(.recording)
            return .success(["state": "recording", "generation": .int(generation), "sound": soundField])
        case let .failure(refusal):
            return .failure(refusal.description)
        }
    }

    private func stopTake() -> ControlReply {
        if case .countdown = indicator {
            countdownNumber += 1
            set(.none)
            return .success(["state": "idle", "cancelled": "countdown"])
        }
        let end = String(format: "%.1f", controller.engine.offset(at: now()))
        switch recorder.finish(annotations: ["position_end": end]) {
        case let .success(generation): return .success(["state": "finishing", "generation": .int(generation)])
        case let .failure(refusal): return .failure(refusal.description)
        }
    }

    /// The banner's line for a take that will record picture only; nil with sound.
    private var silentTakeNote: String? {
        recorder.soundProblem.map { "This take records no sound: \($0)" }
    }

    /// `sound` in the reply: "microphone", or "none: " and why.
    private var soundField: JSONValue {
        .string(recorder.soundProblem.map { "none: \($0)" } ?? "microphone")
    }

    private func set(_ next: TakeIndicator) {
        guard next != indicator else { return }
        indicator = next
        onChange()
    }

    private func show(problem: String?) {
        problems.set(problem.map { [$0] } ?? [], for: .take)
    }
}
