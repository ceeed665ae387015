import Foundation

/// `rig bench`: speed figures of rig side by side with the physical floor and with
/// the software a teleprompter would otherwise use (bench/README.md).
enum BenchCommand {
    static let usage = """
        usage: rig bench [--json] [--quick]
               rig bench --case NAME [--frames N]
        Measures composition, layout and camera conversion against memcpy, Pango+Cairo
        and GStreamer. Run from a release build: bench/run.sh builds one and runs it.
        """

    enum Failure: Error, CustomStringConvertible {
        case noBenchDirectory
        case unreadableText(String, String)

        var description: String {
            switch self {
            case .noBenchDirectory:
                "rig bench: cannot find bench/texts/\(BenchEnvironment.textName); run from the repository or set RIG_BENCH_DIR"
            case let .unreadableText(path, why): "rig bench: cannot read \(path): \(why)"
            }
        }
    }

    /// Returns the process exit status: 0 done, 1 could not run, 2 bad arguments.
    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            return 0
        }
        let options: BenchOptions
        do {
            options = try BenchOptions.parse(arguments)
        } catch {
            printError(error.description + "\n" + usage)
            return 2
        }
        if !BenchEnvironment.isReleaseBuild {
            printError("""
                ************************************************************************
                rig bench: THIS IS A DEBUG BUILD. Its figures are not rig's speed.
                Build with `swift build -c release` (or run bench/run.sh).
                ************************************************************************
                """)
        }
        do {
            let (directory, text) = try loadText()
            if let one = options.caseName {
                return BenchCaseRunner.run(one, frames: options.frames ?? 50, text: text)
            }
            let command = (["rig", "bench"] + arguments).joined(separator: " ")
            let runner = BenchRunner(plan: BenchPlan(quick: options.quick), benchDirectory: directory,
                                     text: text, command: command) { printError("bench: " + $0) }
            let report = runner.run()
            print(options.json ? report.json().rendered() : BenchReportText(report: report).rendered())
            return 0
        } catch {
            printError(error.description)
            return 1
        }
    }

    private static func loadText() throws(Failure) -> (String, String) {
        guard let directory = BenchEnvironment.benchDirectory() else { throw .noBenchDirectory }
        let path = directory + "/texts/" + BenchEnvironment.textName
        do {
            return (directory, try String(contentsOfFile: path, encoding: .utf8))
        } catch {
            throw .unreadableText(path, error.localizedDescription)
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

/// `--case`: set one case up, run its frame `frames` times, print one line. Under
/// callgrind, bench/callgrind.sh runs each case at two frame counts and divides the
/// difference, so set-up cost cancels out.
enum BenchCaseRunner {
    static func run(_ benchCase: BenchCase, frames: Int, text: String) -> Int32 {
        switch benchCase {
        case let .floor(display):
            let floor = FloorBench(display: display)
            for _ in 0..<frames { floor.copyFrame() }
        case .compose, .layout, .camera:
            BenchCommand.printError("rig bench: case unavailable: \(ProducerBenches.reason(for: benchCase))")
            return 1
        }
        print("case done: \(frames) frames")
        return 0
    }
}
