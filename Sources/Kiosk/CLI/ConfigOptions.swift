import Foundation
import Stage

/// `--config PATH` and `--set KEY=VALUE`, shared by every subcommand that reads rig.toml.
struct ConfigOptions {
    static let systemPath = "/etc/rig/rig.toml"
    static let help = """
          --config PATH      rig.toml to read (default: $RIG_CONFIG, else \(systemPath))
          --set KEY=VALUE    override one rig.toml key, e.g. --set prompter.speed=90 (repeatable)
        """

    let explicitPath: String?
    let overrides: [String]

    init(_ arguments: inout Arguments) throws(CLIError) {
        explicitPath = try arguments.option("--config")
        overrides = try arguments.options("--set")
    }

    var path: String {
        explicitPath ?? ProcessInfo.processInfo.environment["RIG_CONFIG"] ?? Self.systemPath
    }

    /// Loads the configuration. A file named on the command line must exist; the
    /// default location may be missing, and then the defaults apply.
    func load() -> ConfigLoader.Result {
        let usingDefaultPath = explicitPath == nil && ProcessInfo.processInfo.environment["RIG_CONFIG"] == nil
        if usingDefaultPath && !FileManager.default.fileExists(atPath: path) {
            return ConfigLoader.load(text: "", name: path, overrides: overrides)
        }
        return ConfigLoader.load(path: path, overrides: overrides)
    }
}
