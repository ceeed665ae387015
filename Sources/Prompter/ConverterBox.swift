import CLinux
import Foundation

/// Runs one converter command in its box (`Sources/CLinux/converter_box.h`) and waits
/// for it on the calling thread, which must be the importer's own: the converter is
/// sent SIGKILL by the kernel when the thread that started it ends (PR_SET_PDEATHSIG),
/// so a kiosk that dies takes its converter along. At the wall limit, or when the owner
/// stops, the converter's whole process group is killed with SIGKILL (a converter has
/// been seen ignoring SIGTERM).
struct ConverterBox: Sendable {
    struct Limits: Sendable, Equatable {
        /// Killed after this long, however busy or idle it is.
        var wallSeconds: Double
        /// RLIMIT_AS: what stopped pandoc growing to 11.8 GB on a zip bomb.
        var addressSpaceBytes: Int
        /// RLIMIT_FSIZE: it cannot write more than this to its output (or anywhere).
        var fileSizeBytes: Int
    }

    enum Ending: Equatable, Sendable {
        case exited(Int32)
        case signaled(Int32)
        case timedOut
        case stopped
    }

    struct Run: Sendable, Equatable {
        var ending: Ending
        /// The converter's largest resident size (VmHWM), as last seen while it ran.
        var peakResidentBytes: Int
    }

    /// What a converter may read besides its input: its program, libraries, locale and
    /// font configuration, and the kernel's CPU description. The scripts folder, the
    /// state directory and the recordings are not here.
    static let systemPaths = ["/usr", "/etc", "/lib", "/lib64", "/bin", "/sbin", "/proc", "/sys/devices/system",
                              "/dev/urandom", "/var/cache/fontconfig"]

    /// The running kernel's landlock ABI, 0 without landlock: converters then run without
    /// the filesystem rule (the other limits still hold).
    static var landlockABI: Int { Int(rig_landlock_abi()) }

    /// Runs `tool` reading `input`, its standard output and error going to `output` and
    /// `errors`. `scratch` is its home and temporary directory, the one place it may
    /// write. `started` gets the pid (a test watches it); `shouldStop` is asked every
    /// 10 ms. Returns how it ended, or why it could not be started.
    func run(tool: String, arguments: [String], input: String, scratch: String, output: Int32, errors: Int32,
             limits: Limits, started: (pid_t) -> Void = { _ in },
             shouldStop: () -> Bool) -> Result<Run, ScriptImportFailure> {
        switch start(tool: tool, arguments: arguments, input: input, scratch: scratch, output: output,
                     errors: errors, limits: limits) {
        case .failure(let failure): return .failure(failure)
        case .success(let pid):
            started(pid)
            return .success(wait(for: pid, limits: limits, shouldStop: shouldStop))
        }
    }

    /// Starts the converter and returns its pid without waiting for it. It lives only as
    /// long as the calling thread: `run` waits on that thread.
    func start(tool: String, arguments: [String], input: String, scratch: String, output: Int32, errors: Int32,
               limits: Limits) -> Result<pid_t, ScriptImportFailure> {
        let ruleset = Self.ruleset(readable: Self.systemPaths + [input, tool], writable: [scratch, "/dev/null"])
        defer { if ruleset >= 0 { close(ruleset) } }
        let stdin = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { if stdin >= 0 { close(stdin) } }
        let environment = ["PATH=/usr/bin:/bin", "HOME=\(scratch)", "TMPDIR=\(scratch)", "LANG=C.UTF-8"]
        var step: Int32 = 0
        var failure: Int32 = 0
        let pid = Self.withCStrings([tool] + arguments) { argv in
            Self.withCStrings(environment) { envp in
                tool.withCString { path in
                    var box = rig_box(path: path, argv: argv, envp: envp, stdin_fd: stdin, stdout_fd: output,
                                      stderr_fd: errors, ruleset_fd: ruleset,
                                      cpu_seconds: UInt64(max(1, limits.wallSeconds.rounded(.up))),
                                      address_space_bytes: UInt64(limits.addressSpaceBytes),
                                      file_size_bytes: UInt64(limits.fileSizeBytes))
                    let pid = rig_spawn_boxed(&box, &step)
                    failure = errno
                    return pid
                }
            }
        }
        guard pid > 0 else {
            let name = (tool as NSString).lastPathComponent
            return .failure(.failed(tool: name, reason: "cannot start it in its box (\(Self.stepName(step))): "
                                        + String(cString: strerror(failure))))
        }
        return .success(pid)
    }

    private func wait(for pid: pid_t, limits: Limits, shouldStop: () -> Bool) -> Run {
        let deadline = Self.now() + limits.wallSeconds
        var peak = 0
        var ending: Ending?
        while ending == nil {
            // VmHWM only grows, so sampling it misses at most the last 10 ms' growth.
            peak = max(peak, Self.residentPeak(of: pid))
            if rig_child_ended(pid) != 0 { break }
            if shouldStop() {
                ending = .stopped
            } else if Self.now() >= deadline {
                ending = .timedOut
            } else {
                var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
                nanosleep(&pause, nil)
            }
        }
        // The group goes too (a shell script's own children), while the unreaped leader
        // still holds the group's id.
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if let ending { return Run(ending: ending, peakResidentBytes: peak) }
        let signal = status & 0x7f
        return Run(ending: signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal), peakResidentBytes: peak)
    }

    /// What the child was doing when its set-up failed (converter_box.h's rig_box_step).
    private static func stepName(_ step: Int32) -> String {
        let names = ["fork", "process group", "death signal", "descriptors",
                     "limits (setrlimit; rig.service must allow it)", "no_new_privs", "landlock", "seccomp", "execve"]
        return (1...names.count).contains(Int(step)) ? names[Int(step) - 1] : "step \(step)"
    }

    /// The ruleset's descriptor, -1 when the kernel has no landlock.
    private static func ruleset(readable: [String], writable: [String]) -> Int32 {
        withCStrings(readable) { readable in
            withCStrings(writable) { writable in
                rig_landlock_ruleset(UnsafeRawPointer(readable).assumingMemoryBound(to: UnsafePointer<CChar>?.self),
                                     UnsafeRawPointer(writable).assumingMemoryBound(to: UnsafePointer<CChar>?.self))
            }
        }
    }

    /// A process's VmHWM from /proc/PID/status, in bytes; 0 once it is gone.
    static func residentPeak(of pid: pid_t) -> Int {
        let fd = open("/proc/\(pid)/status", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return 0 }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) } ?? 0
        return kilobytes * 1024
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A NULL-terminated array of C strings for the duration of `body`.
    private static func withCStrings<R>(_ strings: [String],
                                        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { strdup($0) } + [nil]
        defer { copies.forEach { free($0) } }
        var pointers = copies
        return pointers.withUnsafeMutableBufferPointer { buffer in
            // Never empty: it holds at least the terminating nil.
            guard let base = buffer.baseAddress else { preconditionFailure("empty C string array") }
            return body(base)
        }
    }
}
