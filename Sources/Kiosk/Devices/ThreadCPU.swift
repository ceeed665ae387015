import Foundation
import Glibc

/// CPU seconds of this process's live threads by their kernel name
/// (/proc/self/task/*/stat, in clock ticks): the device threads rig names (`rig-camera`,
/// `rig-preview`, …), so a figure can say what one thread's work costs.
package enum ThreadCPU {
    /// The thread id of the process's main thread names it "main" whatever its comm.
    package static func seconds() -> [(task: String, name: String, seconds: Double)] {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            guard let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
            let comm = String(stat[stat.index(after: open)..<close])
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // After the name: state is field 3, utime 14 and stime 15 (1-based, man 5 proc).
            guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
            return (task, task == String(getpid()) ? "main" : comm, (user + system) / ticks)
        }
    }

    /// The CPU seconds of the threads called `name` (nil when none runs).
    package static func seconds(named name: String) -> Double? {
        let matching = seconds().filter { $0.name == name }
        return matching.isEmpty ? nil : matching.reduce(0) { $0 + $1.seconds }
    }
}
