import Foundation
import Prompter
import Stage

/// `rig _state-writer --dir DIR`: writes the resume state as fast as it can, for the
/// crash-safety test that kills it mid-write. Hidden from `rig --help`.
enum StateWriterCommand: Command {
    static let name = "_state-writer"
    static let summary = "Test aid: rewrite resume state in a loop until killed"
    static let help = "Usage: rig _state-writer --dir DIR [--count N]"

    static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32 {
        guard let dir = try arguments.option("--dir") else { throw .usage("--dir is required") }
        let count = Int(try arguments.option("--count") ?? "") ?? Int.max
        try arguments.finish()
        let store = ResumeStore(directory: URL(fileURLWithPath: dir))
        // A long script name makes each write span several pages.
        let script = String(repeating: "a-long-script-name/", count: 400) + "take.md"
        var written = 0
        while written < count {
            written += 1
            do {
                try store.save(ResumeState(scriptID: script, offset: Double(written), wordIndex: written))
            } catch {
                throw .failed("write \(written): \(error)")
            }
        }
        return 0
    }
}
