import Durable
import Foundation

/// The last script and position, persisted like the settings so a restart (or a power
/// cut) resumes where reading was. The kiosk saves at most about once a second while
/// playing and on every pause/stop, which bounds what a power cut can lose.
public final class ResumeStore {
    public static let defaultFileName = "resume.json"

    public let file: JSONStateFile
    public private(set) var state: ResumeState?
    public private(set) var problem: String?

    public init(directory: URL, fileName: String = ResumeStore.defaultFileName) {
        file = JSONStateFile(url: directory.appendingPathComponent(fileName))
        reload()
    }

    public func reload() {
        switch file.load(decode: { try JSONDecoder().decode(ResumeState.self, from: $0) }) {
        case .loaded(let value):
            state = value
            problem = nil
        case .missing:
            state = nil
            problem = nil
        case .unreadable(let message):
            state = nil
            problem = message
        }
    }

    /// Saves atomically; skips the write when nothing changed.
    public func save(_ newState: ResumeState) throws(AtomicFileError) {
        guard newState != state else { return }
        try file.save(newState)
        state = newState
    }

    /// Forgets the position (the script was deleted).
    public func clear() {
        file.remove()
        state = nil
    }
}
