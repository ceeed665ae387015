#if RIG_FUZZ
import CFuzz
import Foundation
import Kiosk

/// `rig fuzz TARGET [libFuzzer options] [corpus folders]`, only in the fuzz build
/// (`RIG_FUZZ=1` and `-sanitize=fuzzer,address`, as `scripts/fuzz` builds it). The
/// kiosk keeps its own main, so libFuzzer is entered through `LLVMFuzzerRunDriver`
/// instead of its `main`. The target travels in RIG_FUZZ_TARGET, because libFuzzer
/// runs itself again with only its own arguments (-fork, -merge, -minimize_crash).
package enum FuzzDriver {
    static let targetVariable = "RIG_FUZZ_TARGET"
    nonisolated(unsafe) static var selected = FuzzTarget.config

    /// The exit status when this process is a fuzzer run, nil when it is a normal `rig`.
    package static func runIfAsked() -> Int32? {
        var arguments = CommandLine.arguments
        if arguments.count >= 2, arguments[1] == "fuzz" {
            guard arguments.count >= 3, FuzzTarget(rawValue: arguments[2]) != nil else {
                let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
                FileHandle.standardError.write(Data("usage: rig fuzz TARGET [libFuzzer options]; targets: \(names)\n".utf8))
                return 2
            }
            setenv(targetVariable, arguments[2], 1)
            arguments.removeSubrange(1...2)
        }
        guard let name = getenv(targetVariable).map({ String(cString: $0) }) else { return nil }
        guard let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(Data("rig fuzz: no target named \(name)\n".utf8))
            return 2
        }
        selected = target
        var argc = Int32(arguments.count)
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        return cArguments.withUnsafeMutableBufferPointer { buffer in
            var argv = buffer.baseAddress
            return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                FuzzDriver.selected.run(data.map { Data(bytes: $0, count: size) } ?? Data())
                return 0
            }
        }
    }
}

/// libFuzzer's archive brings its own main along when the program's main is not an
/// ordinary symbol at link time (SwiftPM renames an executable's entry point), and that
/// main wants this symbol; it runs the target RIG_FUZZ_TARGET names.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzDriver.selected.run(data.map { Data(bytes: $0, count: size) } ?? Data())
    return 0
}
#endif
