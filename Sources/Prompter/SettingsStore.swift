import Durable
import Foundation

/// The reading settings as persisted in the state directory. Loads once at start;
/// `update` saves atomically. A broken file means defaults plus a `problem` message,
/// never a failed start.
public final class SettingsStore {
    public static let defaultFileName = "reading-settings.json"

    /// The rig.toml defaults: used for a missing file, an unreadable one and missing keys.
    public let defaults: ReadingSettings
    public let file: JSONStateFile
    public private(set) var settings: ReadingSettings
    /// Set when the file could not be read at load; for the inner display and the journal.
    public private(set) var problem: String?

    public init(directory: URL, defaults: ReadingSettings = .standard, fileName: String = SettingsStore.defaultFileName) {
        self.defaults = defaults
        file = JSONStateFile(url: directory.appendingPathComponent(fileName))
        settings = defaults
        reload()
    }

    /// Reads the file again (settings edited over ssh, tests of a restart).
    public func reload() {
        let defaults = self.defaults
        switch file.load(decode: { try ReadingSettings.decoded(from: $0, defaults: defaults) }) {
        case .loaded(let value):
            settings = value
            problem = nil
        case .missing:
            settings = defaults
            problem = nil
        case .unreadable(let message):
            settings = defaults
            problem = message
        }
    }

    /// Stores new settings and writes them atomically when they changed.
    public func update(_ newSettings: ReadingSettings) throws(AtomicFileError) {
        guard newSettings != settings || !FileManager.default.fileExists(atPath: file.url.path) else { return }
        try file.save(newSettings)
        settings = newSettings
    }

    /// Applies a change to the current settings and saves: `store.update { $0.speed = 80 }`.
    public func update(_ change: (inout ReadingSettings) -> Void) throws(AtomicFileError) {
        var copy = settings
        change(&copy)
        try update(copy)
    }
}
