import CLinux
import Foundation

/// The one owner of the process's signal dispositions.
///
/// A signal sent to the process (systemd's SIGTERM, Ctrl-C's SIGINT) goes to any one
/// thread that does not block it. `pthread_sigmask` changes only the calling thread's
/// mask, and a thread inherits the mask of the thread that creates it; so the kiosk's
/// signals are blocked on the main thread before any other thread exists, and every
/// thread after that (state writer, camera, sound) inherits the block. The signals then
/// arrive only through `SignalWatcher`'s descriptor, on the event loop.
enum ProcessSignals {
    /// What the kiosk reads from its signal descriptor: stop on TERM and INT, note HUP
    /// (a hung-up terminal must not end the kiosk), USR1 for the test pattern.
    static let watched: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGUSR1]

    /// Blocks `watched` for the calling thread and every thread it creates from now on,
    /// and ignores SIGPIPE (a control client that left mid-reply costs a write error on
    /// its own connection, never the process). Call before any thread is started.
    static func claim() {
        signal(SIGPIPE, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        for number in watched { sigaddset(&set, number) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Threads of this process that would take `number` with its default action: the
    /// thread ids whose `SigBlk` in /proc lacks it. Empty when the claim held.
    static func threadsNotBlocking(_ number: Int32) -> [Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task -> Int? in
            guard let status = try? String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
                  let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
            else { return nil }
            return mask & (UInt64(1) << UInt64(number - 1)) == 0 ? Int(task) : nil
        }
    }
}
