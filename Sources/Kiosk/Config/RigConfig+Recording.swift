import Media

extension RigConfig {
    /// `[recording]`: prompter takes and game attempts to fragmented MP4.
    struct Recording: Equatable, Sendable {
        /// Offer Record at all; off, the Record button and `rig ctl record` refuse.
        var enabled = true
        /// Where takes go; "" = `recordings` under the state directory.
        var folder = ""
        /// The camera mode asked for, since one capture feeds previews and recordings;
        /// 0 = [camera]'s width, height or fps (1920x1080@30 by default). The camera
        /// gives the closest mode it has.
        var width = 0
        var height = 0
        var fps = 0
        /// x264 preset, ultrafast ... veryslow.
        var preset = "veryfast"
        /// x264 CRF (0 lossless ... 51); used unless `bitrate_kbps` is set.
        var quality = 23
        /// Average video bitrate in kbit/s; 0 = constant quality.
        var bitrateKbps = 0
        /// Record the room microphone ([audio] input) with the picture.
        var audio = true
        /// Media older than this many days are removed at start (their JSON stays);
        /// 0 keeps everything.
        var retentionDays = 7
        /// A take does not start, and stops cleanly, when less than this is free.
        var minFreeMB = 512
        /// Seconds of 3-2-1 on the talent's display before a take; 0 = none.
        var countdown = 3
        /// Where `rig ctl clips export` copies to without `--to` (a mounted stick).
        var exportFolder = ""
    }

    /// The recordings folder: `recording.folder`, or `recordings` under the state directory.
    var recordingsDirectory: String {
        recording.folder.isEmpty ? state.dir + "/recordings" : recording.folder
    }

    /// The recorder's settings from `[recording]`.
    var recorderSettings: RecorderSettings {
        var settings = RecorderSettings()
        settings.preset = recording.preset
        settings.quality = recording.bitrateKbps > 0 ? .bitrate(recording.bitrateKbps * 1000)
            : .constantQuality(Double(recording.quality))
        settings.nominalFrameRate = recording.fps > 0 ? recording.fps : camera.fps
        settings.minimumFreeBytes = UInt64(recording.minFreeMB) * 1_048_576
        return settings
    }
}

/// The rig.toml keys of `[recording]`.
enum RecordingConfigKeys {
    static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower",
                          "veryslow"]

    static var keys: [ConfigKey] {
        [
            ConfigSchema.bool("recording.enabled", \.recording.enabled),
            ConfigSchema.string("recording.folder", \.recording.folder),
            zeroOr("recording.width", 160...3840, \.recording.width),
            zeroOr("recording.height", 120...2160, \.recording.height),
            zeroOr("recording.fps", 1...120, \.recording.fps),
            ConfigSchema.oneOf("recording.preset", presets, \.recording.preset),
            ConfigSchema.int("recording.quality", 0...51, \.recording.quality),
            ConfigSchema.int("recording.bitrate_kbps", 0...100_000, \.recording.bitrateKbps),
            ConfigSchema.bool("recording.audio", \.recording.audio),
            ConfigSchema.int("recording.retention_days", 0...3650, \.recording.retentionDays),
            ConfigSchema.int("recording.min_free_mb", 16...1_048_576, \.recording.minFreeMB),
            ConfigSchema.int("recording.countdown", 0...10, \.recording.countdown),
            ConfigSchema.string("recording.export_folder", \.recording.exportFolder),
        ]
    }

    /// 0 (= as [camera]) or a value in `range`.
    static func zeroOr(_ path: String, _ range: ClosedRange<Int>, _ at: WritableKeyPath<RigConfig, Int>) -> ConfigKey {
        ConfigKey(path: path) { config, value in
            guard case let .scalar(.integer(number)) = value else {
                return "\(path) must be an integer, found \(value.kindName)"
            }
            guard let fitted = Int(exactly: number), fitted == 0 || range.contains(fitted) else {
                return "\(path) must be 0 (as [camera]) or between \(range.lowerBound) and \(range.upperBound), found \(number)"
            }
            config[keyPath: at] = fitted
            return nil
        }
    }
}

extension RecordingService.Settings {
    /// `[recording]` and the recordings folder as the recording service takes them.
    init(_ config: RigConfig) {
        self.init(enabled: config.recording.enabled, folder: config.recordingsDirectory,
                  recorder: config.recorderSettings, audio: config.recording.audio,
                  retentionDays: config.recording.retentionDays, countdown: config.recording.countdown)
    }
}
