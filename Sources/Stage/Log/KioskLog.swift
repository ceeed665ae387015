import Foundation

/// The kiosk's log: one line per state change, never one per frame. Under systemd
/// stderr goes to the journal, and the `<N>` prefix sets each line's priority.
package enum KioskLog {
    package enum Priority: Int {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
    }

    private static let toJournal = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil

    package static func error(_ message: String) { write(.error, message) }
    package static func warning(_ message: String) { write(.warning, message) }
    package static func notice(_ message: String) { write(.notice, message) }
    package static func info(_ message: String) { write(.info, message) }

    package static func write(_ priority: Priority, _ message: String) {
        let prefix = toJournal ? "<\(priority.rawValue)>" : ""
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        let text = lines.map { prefix + $0 }.joined(separator: "\n") + "\n"
        FileHandle.standardError.write(Data(text.utf8))
    }
}
