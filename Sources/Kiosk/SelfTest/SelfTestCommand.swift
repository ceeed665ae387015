import Foundation
import Stage

/// `rig selftest`: the owner's own hardware checked with the kiosk's device code, each
/// step printed as it finishes, with its verdict and the fix. With the kiosk running it
/// asks that kiosk (which holds the displays); otherwise it opens the devices itself as
/// `rig run` would, runs the self-test, and stops.
enum SelfTestCommand: Command {
    static let name = "selftest"
    static let watchesSignals = true
    static let summary = "Check this rig's displays, touch, camera, sound, disk, clock and remote"
    static let help = """
        Usage: rig selftest [--json] [--touch-seconds N] [--backend drm|headless]
                            [--config PATH] [--set KEY=VALUE ...]

          Takes about 45 seconds. Both displays show a test card: which display it
          is and which way is up (the talent's through the mirror as configured), and
          a bar that moves every frame while their refresh is measured. The talent's
          display then shows the camera's preview, then asks for 5 taps on its square.
          A tone is played and listened for through the microphone, espeak-ng speaks
          a line, and a 5 s trial encode (a test pattern, deleted after) shows whether
          the recorder keeps up with the camera at [recording]'s preset.

          Each check prints ok, WARNING or PROBLEM with its figures and the fix. The
          report is kept in the state folder as selftest.json and selftest.txt.
          Exits 0 when nothing is a problem, 1 when something is, 2 on bad usage.

          With the kiosk running (rig.service or rig run), the running kiosk does the
          test on its displays; the Self-test button in the console's Settings does
          the same.

        Options:
          --json               the report as one JSON object at the end, nothing else
          --touch-seconds N    how long to wait for taps (default 20; 0 skips touch)
          --backend KIND       without a running kiosk: drm (default) or headless
        \(ConfigOptions.help)
        """

    static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32 {
        let json = arguments.flag("--json")
        let touch = try arguments.option("--touch-seconds").map { text throws(CLIError) -> Double in
            guard let seconds = Double(text), (0...600).contains(seconds) else {
                throw .usage("--touch-seconds must be a number of seconds from 0 to 600, not '\(text)'")
            }
            return seconds
        }
        let kindName = try arguments.option("--backend") ?? "drm"
        guard let kind = DisplayService.Kind(rawValue: kindName), kind != .window else {
            throw .usage("--backend must be drm or headless, not '\(kindName)'")
        }
        let options = try ConfigOptions(&arguments)
        try arguments.finish()
        let loaded = options.load()
        let output = Output(json: json)
        let socket = CtlCommand.reachable(loaded.config.control.socket)
        if let connection = try? ControlConnection(path: socket) {
            return try throughKiosk(connection, socket: socket, touch: touch, output: output)
        }
        var config = loaded.config
        if !loaded.errors.isEmpty {
            for problem in loaded.errors { Log.stderr(problem.description) }
            config = ConfigLoader.load(text: "", name: options.path, overrides: options.overrides).config
        }
        do {
            let app = try KioskApp(config: config, configProblems: loaded.problems, backend: kind,
                                   useSeat: kind == .drm && geteuid() != 0,
                                   devices: kind == .headless ? [.input, .camera] : .all)
            var selfTest = SelfTestRun.Options()
            if let touch { selfTest.touchSeconds = touch }
            return KioskSelfTest(app: app).run(selfTest, step: output.step, finished: output.finished)
        } catch {
            throw .failed("\(error)")
        }
    }

    /// Each step as it finishes and the summary, or with --json the report at the end alone.
    private struct Output {
        var json: Bool

        func step(_ step: SelfTestStep) {
            if !json { step.text.forEach { Log.stdout($0) } }
        }

        func finished(_ report: SelfTestReport) {
            if json { return Log.stdout(report.json.serialized) }
            Log.stdout("")
            Log.stdout(report.summary)
        }
    }

    /// The running kiosk does the test; its report is read until it has finished.
    private static func throughKiosk(_ connection: ControlConnection, socket: String, touch: Double?,
                                     output: Output) throws(CLIError) -> Int32 {
        do {
            let started = try connection.request(.selfTest(start: true, touchSeconds: touch))
            guard started["ok"]?.boolValue == true else {
                throw CLIError.failed("the kiosk at \(socket): " + (started["error"]?.stringValue ?? "refused"))
            }
            if !output.json { Log.stdout("The kiosk at \(socket) is running the self-test on its displays.") }
            var printed = 0
            while true {
                let reply = try ControlConnection(path: socket).request(.selfTest(start: false, touchSeconds: nil))
                guard let json = reply["selftest"], let report = SelfTestReport(json: json) else {
                    throw CLIError.failed("the kiosk at \(socket) has no self-test report")
                }
                report.steps.dropFirst(printed).forEach(output.step)
                printed = report.steps.count
                if report.finished {
                    output.finished(report)
                    return report.verdict == .problem ? 1 : 0
                }
                usleep(200_000)  // the report is read over the socket; the kiosk pushes nothing
            }
        } catch let error as CLIError {
            throw error
        } catch {
            throw .failed("\(error)")
        }
    }
}
