import Foundation
import Stage

/// Where clip metadata is written: a thread of its own (fsync and rename take
/// milliseconds the loop does not wait for), a plain one like the state writer's,
/// since rig.service's system-call filter refuses calls libdispatch's workers make.
/// Per file the last write or removal asked for wins.
final class MetadataWriter: Sendable {
    static let shared = MetadataWriter()
    private let writer = StateWriter(name: "rig clip metadata")

    func write(_ data: Data, to path: String) {
        writer.write(data, to: URL(fileURLWithPath: path))
    }

    /// Removes the file after the writes before it, so none of them brings it back.
    func remove(_ path: String) {
        writer.remove(URL(fileURLWithPath: path))
    }

    /// Waits until every write asked for so far is done (tests, shutdown).
    func flush() { writer.flush() }
}
