import Stage

/// `rig selftest` without a running kiosk: the kiosk comes up on its devices as
/// `rig run` brings it up, the stage runs one self-test, and the kiosk stops when the
/// report is complete (or on SIGTERM or SIGINT, with what ran so far).
struct KioskSelfTest {
    let app: KioskApp

    /// Exit status: 0 with no problem, 1 with one (or when the test could not start).
    func run(_ options: SelfTestRun.Options, step: @escaping (SelfTestStep) -> Void,
             finished: @escaping (SelfTestReport) -> Void) -> Int32 {
        app.start()
        var report: SelfTestReport?
        app.stage.selfTests.onStep = step
        app.stage.selfTests.onFinish = { [loop = app.loop] done in
            report = done
            loop.stop()
        }
        // The displays' first frames before the measuring starts: a modeset's first
        // flips are not the display's pace.
        app.loop.addTimer(at: app.loop.clock() + 1) { [app] in
            if let refusal = app.stage.startSelfTest(options) {
                Log.stderr("self-test: \(refusal)")
                app.loop.stop()
            }
        }
        app.loop.run()
        if report == nil, let run = app.stage.selfTests.run {
            run.cancel()
            report = run.report
        }
        app.shutdown()
        guard let report else { return 1 }
        finished(report)
        return report.verdict == .problem ? 1 : 0
    }
}
