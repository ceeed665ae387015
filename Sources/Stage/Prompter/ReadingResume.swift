import Foundation
import Prompter

/// Where reading was, kept so a restart (or a power cut) goes back there: the open
/// script and its offset, handed to a writer thread of its own. The event loop only
/// encodes; the atomic write with its fsyncs can take longer than a frame on an SD card.
final class ReadingResume {
    let store: ResumeStore
    private let writer = StateWriter()
    /// The position last handed to `writer` (the store's is the one read at start).
    private var lastSaved: ResumeState?

    init(directory: URL) {
        store = ResumeStore(directory: directory)
    }

    deinit { writer.stop() }

    /// The position last kept, whichever script it is of.
    var last: ResumeState? { lastSaved ?? store.state }

    /// Where `script` was left, if the position kept is of it: the offset to resume at
    /// once its layout is known.
    func point(for script: OpenScript?) -> ResumeState? {
        guard let script, let saved = last, saved.scriptID == script.id else { return nil }
        return saved
    }

    /// Keeps `state` unless it is the one kept already: cheap when nothing moved.
    func save(_ state: ResumeState) {
        guard state != last else { return }
        do {
            writer.write(try JSONStateFile.encode(state), to: store.file.url)
            lastSaved = state
        } catch {
            KioskLog.error("cannot encode the reading position: \(error)")
        }
    }

    /// Waits for queued writes (at shutdown, and in tests).
    func flush() { writer.flush() }
}
