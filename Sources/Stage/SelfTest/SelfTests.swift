import Durable
import Foundation

/// The rig's self-tests as the stage keeps them: the one running (or finished and still
/// on the inner display), the last report for `rig ctl selftest`, and its copy in the
/// state folder for support (`selftest.json`, `selftest.txt`).
package final class SelfTests {
    package private(set) var run: SelfTestRun?
    package private(set) var last: SelfTestReport?
    /// The kiosk's devices; nil (tests, `rig snapshot`) refuses to start.
    package var port: SelfTestPort?
    /// Each step as it finishes, and the report at the end (`rig selftest` prints them).
    package var onStep: (SelfTestStep) -> Void = { _ in }
    package var onFinish: (SelfTestReport) -> Void = { _ in }
    /// What the displays show changed.
    var onChange: () -> Void = {}
    private let stateDirectory: URL?

    init(stateDirectory: URL?) { self.stateDirectory = stateDirectory }

    /// A run is measuring or waiting (its cards hold both displays).
    package var isRunning: Bool { run.map { $0.phase != .finished } ?? false }
    var animates: Bool { run?.animates ?? false }
    /// The talent's display shows the camera's preview for the self-test.
    var showsCamera: Bool { run?.showsCamera ?? false }

    func card(_ role: DisplayRole) -> SelfTestCardShown? { run?.card(role) }

    /// Starts a self-test; the reason when it cannot.
    func start(options: SelfTestRun.Options, sound: SoundOutputPort, outerTouchscreen: @escaping () -> Bool,
               displayStatus: @escaping (DisplayRole) -> DisplayStatus?, pairing: SelfTestRun.Pairing,
               now: @escaping () -> Double, schedule: @escaping (Double, @escaping () -> Void) -> Void) -> String? {
        guard let port else { return "this kiosk has no devices to test" }
        guard !isRunning else { return "a self-test is already running" }
        let run = SelfTestRun(port: port, sound: sound, outerTouchscreen: outerTouchscreen, displayStatus: displayStatus,
                              pairing: pairing, options: options,
                              started: TimeText.iso8601(Date()), now: now, schedule: schedule)
        run.onStep = { [unowned self] step in
            KioskLog.info("self-test: \(step.verdict.rawValue) \(step.title): " + (step.lines + (step.fix.map { ["fix: \($0)"] } ?? [])).joined(separator: "; "))
            onStep(step)
        }
        run.onChange = { [unowned self] in onChange() }
        run.onFinish = { [unowned self] report in finished(report) }
        self.run = run
        run.start()
        return nil
    }

    /// While a self-test holds the displays, the talent's taps and the operator's touches
    /// are its measurements; Escape cancels it; once its results are up any key or touch
    /// closes them. True when the event was the self-test's.
    func takes(_ event: StageEvent) -> Bool {
        guard let run else { return false }
        let running = run.phase != .finished
        switch event {
        case let .outerTap(time) where running:
            run.outerTapped(at: time)
        case .innerTouch(.down, _, _, _):
            if running { run.innerTouched() } else { cancelOrClose() }
        case .innerTouch where running:
            break
        case let .key(press):
            if !running || press.symbol == .escape { cancelOrClose() }
        case .innerPointer(_, _, .some, _) where !running:
            cancelOrClose()
        case .innerPointer where running:
            break  // the console is behind the card: nothing there may be clicked
        default:
            return false
        }
        return true
    }

    /// Escape while it runs; any key or touch once its results are up.
    func cancelOrClose() {
        guard let run else { return }
        if run.phase == .finished { self.run = nil } else { run.cancel() }
        onChange()
    }

    private func finished(_ report: SelfTestReport) {
        last = report
        KioskLog.notice("self-test finished: \(report.summary)")
        if let stateDirectory {
            do {
                try AtomicFile.write(Data((report.json.serialized + "\n").utf8),
                                     to: stateDirectory.appendingPathComponent("selftest.json"), access: .ownerOnly)
                let text = report.steps.flatMap(\.text) + ["", report.summary, "started \(report.started)"]
                try AtomicFile.write(Data((text.joined(separator: "\n") + "\n").utf8),
                                     to: stateDirectory.appendingPathComponent("selftest.txt"), access: .ownerOnly)
            } catch {
                KioskLog.warning("self-test: \(error)")
            }
        }
        onFinish(report)
    }
}
