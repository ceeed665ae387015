import Foundation
import Glibc

/// Where the kiosk keeps its state and its control socket when rig.toml leaves them
/// empty: the appliance's folders when it runs as the rig service (systemd's
/// StateDirectory=/RuntimeDirectory=, or as the `rig` user or root), the user's own
/// otherwise, so a desktop tryout as a normal user needs no root and finds its library
/// where it left it: `$XDG_STATE_HOME/rig` (~/.local/state/rig) and
/// `$XDG_RUNTIME_DIR/rig/control.sock`. `rig ctl` resolves the same and finds it.
enum RigPaths {
    static let applianceState = "/var/lib/rig"
    static let applianceSocket = "/run/rig/control.sock"

    struct Defaults: Equatable {
        var state: String
        var socket: String
        /// A person's own folders, not the appliance's.
        var personal: Bool
    }

    static func defaults(environment: [String: String] = ProcessInfo.processInfo.environment,
                         user: String? = currentUserName(), uid: uid_t = geteuid()) -> Defaults {
        let service = environment["STATE_DIRECTORY"] != nil || user == "rig" || uid == 0
        guard !service else {
            // systemd names the folders it made for the unit: those, when it says so.
            let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first.map(String.init) ?? applianceState
            let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first.map { "\($0)/control.sock" }
            return Defaults(state: state, socket: runtime ?? applianceSocket, personal: false)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp/rig-\(uid)"
        let stateHome = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/state"
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp/rig-\(uid)"
        return Defaults(state: stateHome + "/rig", socket: runtime + "/rig/control.sock", personal: true)
    }

    static func currentUserName() -> String? {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }
}

/// The files rig ships beside its binary: the game's action cards, the phone page and
/// the example scripts. Found from the executable, never the current directory: the
/// package's `/usr/share/rig` for `/usr/bin/rig`, a checkout's `share/` (and
/// `examples/scripts`) for a binary built in `.build/` of that checkout.
struct SharedData {
    let gameCatalog: URL
    let remotePage: URL
    let exampleScripts: URL

    static let installed = SharedData(root: URL(fileURLWithPath: "/usr/share/rig"), checkout: false)

    private init(root: URL, checkout: Bool) {
        let share = checkout ? root.appendingPathComponent("share") : root
        gameCatalog = share.appendingPathComponent("game/actions.json")
        remotePage = share.appendingPathComponent("remote")
        exampleScripts = checkout ? root.appendingPathComponent("examples/scripts") : root.appendingPathComponent("examples")
    }

    /// A person's first library: the example scripts copied into a scripts folder that
    /// does not exist yet (the package's postinst does the same for the service).
    func seedExamples(into folder: String) {
        guard !FileManager.default.fileExists(atPath: folder),
              let names = try? FileManager.default.contentsOfDirectory(atPath: exampleScripts.path) else { return }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in names where !name.hasPrefix(".") {
            try? FileManager.default.copyItem(at: exampleScripts.appendingPathComponent(name),
                                              to: URL(fileURLWithPath: folder).appendingPathComponent(name))
        }
    }

    /// For the running binary.
    static var here: SharedData { forExecutable(at: Bundle.main.executableURL ?? URL(fileURLWithPath: "/usr/bin/rig")) }

    static func forExecutable(at url: URL) -> SharedData {
        var folder = url.resolvingSymlinksInPath().deletingLastPathComponent()
        if folder.path.hasPrefix("/usr/") { return installed }
        // A checkout: the first folder upwards with the action cards in share/.
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("share/game/actions.json").path) {
                return SharedData(root: folder, checkout: true)
            }
            folder.deleteLastPathComponent()
        }
        return installed
    }
}
