import Foundation
import Kiosk
import Prompter
import Stage

/// `rig bench`: speed figures of rig side by side with the physical floor and with
/// the software a teleprompter would otherwise use (bench/README.md).
package enum BenchCommand: Command {
    package static let name = "bench"
    package static let summary = "Measure frame composition, layout, camera conversion, speech, voice follow and the recording load"
    package static let help = """
        Usage: rig bench [--json] [--quick] [--no-peers]
               rig bench --case NAME [--frames N]

          Measures outer-frame composition, layout and camera conversion side by side
          with the floor (memcpy of a frame) and the peers (Pango+Cairo, GStreamer).
          Run from a release build: bench/run.sh installs the peers, builds and runs.

        Options:
          --json          print one JSON object (schema in bench/README.md)
          --quick         fewer samples and transforms; under a minute
          --no-peers      rig's own cases only (no Pango, no GStreamer)
          --case NAME     run one case only (for callgrind): floor:WxH,
                          compose:WxH:SIZE[:TRANSFORM[:SPEED]] (SPEED in
                          px/s, 180 unless given), layout:SIZE, camera,
                          console:WxH, speech, follow, smoothness[:WxH] (each
                          frame's scroll step from the pixels, 7 speeds on
                          60, 59.94 and 50 Hz), kiosk-smoothness[:WxH
                          [:TRANSFORM]] (the same on a running headless
                          kiosk's shown frames),
                          follow-rigs (a lead kiosk's outer frames alone
                          and with 8 follower rigs' links),
                          markup (a marked script against the same text
                          unmarked), recording-load (their figures on
                          stderr; recording-load: --frames camera frames at
                          30 fps, at least 30)
          --frames N      frames for --case (default 50)
        """

    package static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32 {
        // BenchOptions reads every word itself and rejects what it does not know.
        run(words: arguments.words)
    }

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

    /// Returns the process exit status: 0 done, 2 bad arguments or could not run.
    static func run(words arguments: [String]) -> Int32 {
        let options: BenchOptions
        do {
            options = try BenchOptions.parse(arguments)
        } catch {
            printError(error.description)
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
            let runner = BenchRunner(plan: BenchPlan(quick: options.quick, peers: !options.noPeers), benchDirectory: directory,
                                     text: text, command: command) { printError("bench: " + $0) }
            let report = runner.run()
            print(options.json ? report.json().rendered() : BenchReportText(report: report).rendered())
            return 0
        } catch {
            printError(error.description)
            return 2
        }
    }

    private static func loadText() throws(Failure) -> (String, String) {
        guard let directory = BenchEnvironment.benchDirectory() else { throw .noBenchDirectory }
        let path = directory + "/texts/" + BenchEnvironment.textName
        do {
            // Read as the kiosk would read it from the library (its paragraphs are one
            // line each, so the line-break rule leaves it as it is).
            let source = try String(contentsOfFile: path, encoding: .utf8)
            return (directory, ScriptLibrary.readingText(source, format: .plainText, lineBreaks: .auto))
        } catch {
            throw .unreadableText(path, error.localizedDescription)
        }
    }

    static func printError(_ message: String) { Log.stderr(message) }
}
