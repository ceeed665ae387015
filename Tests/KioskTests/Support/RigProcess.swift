import Foundation

/// The `rig` executable started the way systemd starts a service: by posix_spawn with
/// an empty signal mask and default dispositions. Foundation's `Process` hands the
/// child the test runner's mask, whose threads may block SIGTERM already; a kiosk
/// started so would stop cleanly for the wrong reason.
final class RigProcess {
    let pid: pid_t
    private(set) var exitStatus: Int32?
    private(set) var killedBy: Int32?

    /// `rig ARGUMENTS`, in the network namespace `namespace` if one is named (through
    /// `ip netns exec`, which execs rig in the same process).
    init(_ arguments: [String], standardError: URL, namespace: String? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, standardError.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let words = (namespace.map { ["/usr/sbin/ip", "netns", "exec", $0] } ?? []) + [RigBinary.url.path] + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, words[0], &actions, &attributes, &argv, environ)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
        pid = child
    }

    /// Waits up to `seconds` for the process to end; false if it still runs.
    func wait(seconds: Double) -> Bool {
        let deadline = Date() + seconds
        while exitStatus == nil && killedBy == nil {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                // WIFEXITED / WEXITSTATUS / WTERMSIG are macros; these are their definitions.
                if status & 0x7f == 0 { exitStatus = (status >> 8) & 0xff } else { killedBy = status & 0x7f }
                return true
            }
            if result < 0 || Date() > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// Polls /proc until the process's main thread blocks `signal` (its signals are
    /// claimed), or the process ended, or `seconds` passed.
    func waitUntilMainThreadBlocks(_ signal: Int32, seconds: Double) -> Bool {
        let deadline = Date() + seconds
        while Date() < deadline {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
            if let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
               let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16),
               mask & (UInt64(1) << UInt64(signal - 1)) != 0 {
                return true
            }
            usleep(1_000)
        }
        return false
    }

    deinit {
        if exitStatus == nil && killedBy == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }
}
