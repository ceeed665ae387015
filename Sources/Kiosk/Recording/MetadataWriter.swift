import Foundation
import Glibc
import Media
import Stage

/// The one thread that writes clip metadata (fsync and rename take milliseconds the loop
/// does not wait for). Writes happen in the order given; the last one wins.
final class MetadataWriter: Sendable {
    static let shared = MetadataWriter()
    private let queue = DispatchQueue(label: "rig-clip-metadata")

    func write(_ data: Data, to path: String) {
        queue.async {
            do throws(RecordingError) {
                try GameClipMetadata.write(data, to: path)
            } catch {
                KioskLog.warning("game clip metadata: \(error)")
            }
        }
    }

    /// Removes the file after the writes before it, so none of them brings it back.
    func remove(_ path: String) {
        queue.async { unlink(path) }
    }

    /// Waits until every write asked for so far is done (tests, shutdown).
    func flush() { queue.sync {} }
}
