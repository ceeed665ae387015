import Foundation
import Glibc
import Kiosk
import Stage

/// What the run needs from outside: the repository's bench/ folder (texts and peer
/// scripts), the machine's description, and peak memory.
enum BenchEnvironment {
    static let textName = "devils-dictionary-10k.txt"
    /// The right-to-left and CJK samples (bench/texts/README.md), laid out at 60 px.
    static let samples = [(file: "persian-gnome-help.txt", script: "Persian, Arabic script, right to left"),
                          (file: "chinese-gnome-help.txt", script: "Simplified Chinese")]
    static let sampleSizePx = 60

    /// bench/ of the repository: $RIG_BENCH_DIR, else the first `bench/texts/<text>`
    /// found walking up from the working directory, then from the executable
    /// (.build/release/rig sits two levels under the repository).
    static func benchDirectory() -> String? {
        let fm = FileManager.default
        if let dir = ProcessInfo.processInfo.environment["RIG_BENCH_DIR"] {
            return fm.fileExists(atPath: dir + "/texts/" + textName) ? dir : nil
        }
        var starts = [fm.currentDirectoryPath]
        if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append((exe as NSString).deletingLastPathComponent)
        }
        for start in starts {
            var dir = start
            while !dir.isEmpty {
                let candidate = dir + "/bench"
                if fm.fileExists(atPath: candidate + "/texts/" + textName) { return candidate }
                let parent = (dir as NSString).deletingLastPathComponent
                if parent == dir { break }
                dir = parent
            }
        }
        return nil
    }

    static func machine() -> BenchReport.Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n")
            .first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: &name.release) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return .init(cpuModel: model, processors: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), kernel: kernel)
    }

    /// This process's peak resident memory in KiB: VmHWM of /proc/self/status, which
    /// belongs to the process's own address space. (getrusage's ru_maxrss survives
    /// exec, so a child started from a big parent would report the parent's size.)
    static func peakResidentKiB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return vmHWM(inStatus: status)
    }

    static func vmHWM(inStatus status: String) -> Int? {
        status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
            .flatMap { $0.split(whereSeparator: \.isWhitespace).dropFirst().first }
            .flatMap { Int($0) }
    }

    static var isReleaseBuild: Bool {
        #if DEBUG
        false
        #else
        true
        #endif
    }
}
