import Foundation
import Glibc
import Stage
import Testing
@testable import Kiosk

/// Where the kiosk keeps its state and socket by default, and where it finds what it
/// ships: the service's folders for the service, the user's for anyone else, and the
/// shared files beside the binary whatever the current folder.
@Suite struct RigPathsTests {
    @Test func theServiceKeepsTheAppliancesFoldersAndAPersonTheirOwn() {
        let service = RigPaths.defaults(environment: ["STATE_DIRECTORY": "/var/lib/rig", "RUNTIME_DIRECTORY": "/run/rig"],
                                        user: "rig", uid: 998)
        #expect(service == .init(state: "/var/lib/rig", socket: "/run/rig/control.sock", personal: false))
        #expect(RigPaths.defaults(environment: [:], user: "root", uid: 0).state == "/var/lib/rig")
        #expect(RigPaths.defaults(environment: [:], user: "rig", uid: 998).socket == "/run/rig/control.sock")
        let ann = RigPaths.defaults(environment: ["HOME": "/home/ann", "XDG_RUNTIME_DIR": "/run/user/1000"],
                                    user: "ann", uid: 1000)
        #expect(ann == .init(state: "/home/ann/.local/state/rig", socket: "/run/user/1000/rig/control.sock", personal: true))
        let xdg = RigPaths.defaults(environment: ["HOME": "/home/ann", "XDG_STATE_HOME": "/data/state"], user: "ann", uid: 1000)
        #expect(xdg.state == "/data/state/rig" && xdg.socket == "/tmp/rig-1000/rig/control.sock")
    }

    @Test func rigCtlFallsBackToTheServicesSocketForAnOperatorWithoutTheirOwnKiosk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-ctl-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let service = folder.appendingPathComponent("service.sock").path
        let own = folder.appendingPathComponent("own.sock").path
        let person = RigPaths.Defaults(state: folder.path, socket: own, personal: true)
        // Neither there: the person's own, which the error then names.
        #expect(CtlCommand.reachable(own, defaults: person, appliance: service) == own)
        #expect(FileManager.default.createFile(atPath: service, contents: nil))
        #expect(CtlCommand.reachable(own, defaults: person, appliance: service) == service)
        // Their own kiosk runs: its socket. A socket written in rig.toml is kept.
        #expect(FileManager.default.createFile(atPath: own, contents: nil))
        #expect(CtlCommand.reachable(own, defaults: person, appliance: service) == own)
        #expect(CtlCommand.reachable("/elsewhere.sock", defaults: person, appliance: service) == "/elsewhere.sock")
        let root = RigPaths.Defaults(state: "/var/lib/rig", socket: own, personal: false)
        try FileManager.default.removeItem(atPath: own)
        #expect(CtlCommand.reachable(own, defaults: root, appliance: service) == own)
    }

    @Test func sharedDataIsFoundBesideTheBinary() {
        let installed = SharedData.forExecutable(at: URL(fileURLWithPath: "/usr/bin/rig"))
        #expect(installed.gameCatalog.path == "/usr/share/rig/game/actions.json")
        #expect(installed.remotePage.path == "/usr/share/rig/remote")
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let built = SharedData.forExecutable(at: checkout.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug/rig"))
        #expect(built.gameCatalog.path == checkout.appendingPathComponent("share/game/actions.json").path)
        #expect(built.exampleScripts.path == checkout.appendingPathComponent("examples/scripts").path)
    }

    /// As a person tries it: a normal user (nobody, when the tests run as root), in their
    /// own home folder, far from the checkout, with the example rig.toml copied there.
    /// The kiosk comes up with the example scripts in the user's state folder and the
    /// game's cards, and `rig ctl` finds it with no socket flag.
    @Test func aNormalUserRunsItFromTheirHomeFolder() throws {
        let home = URL(fileURLWithPath: "/tmp/rig-home-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(at: checkout.appendingPathComponent("rig.toml"), to: home.appendingPathComponent("rig.toml"))
        let asRoot = geteuid() == 0
        let uid: uid_t = asRoot ? 65534 : geteuid()
        if asRoot { chown(home.path, uid, uid) }
        let runtime = home.appendingPathComponent("run")
        let binary = RigBinary.url.path
        func command(_ arguments: [String]) -> [String] {
            let environment = ["env", "-i", "HOME=\(home.path)", "XDG_RUNTIME_DIR=\(runtime.path)", "PATH=/usr/bin:/bin"]
            let user = asRoot ? ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"] : []
            return user + environment + [binary] + arguments
        }
        let kiosk = Process()
        kiosk.executableURL = URL(fileURLWithPath: command([])[0])
        kiosk.arguments = Array(command(["run", "--backend", "headless", "--config", home.path + "/rig.toml"]).dropFirst())
        kiosk.currentDirectoryURL = home
        kiosk.standardError = FileHandle.nullDevice
        kiosk.standardOutput = FileHandle.nullDevice
        try kiosk.run()
        defer { kiosk.terminate(); kiosk.waitUntilExit() }

        func ctl(_ request: [String]) -> JSONValue? {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: command([])[0])
            process.arguments = Array(command(["ctl", "--config", home.path + "/rig.toml"] + request).dropFirst())
            process.currentDirectoryURL = home
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return JSONValue.parse(data)
        }
        let deadline = Date() + 30
        var status: JSONValue?
        while Date() < deadline {
            status = ctl(["status"])
            if status?["ok"]?.boolValue == true { break }
            usleep(100_000)
        }
        #expect(status?["ok"]?.boolValue == true, "rig ctl found no kiosk at the user's socket")
        #expect(FileManager.default.fileExists(atPath: runtime.path + "/rig/control.sock"))
        let scripts = home.path + "/.local/state/rig/scripts"
        let examples = (try? FileManager.default.contentsOfDirectory(atPath: checkout.path + "/examples/scripts")) ?? []
        let copied = (try? FileManager.default.contentsOfDirectory(atPath: scripts)) ?? []
        #expect(!examples.isEmpty && Set(examples).isSubset(of: Set(copied)), "\(copied)")
        let listed = ctl(["scripts"])?["scripts"]?.serialized ?? ""
        #expect(examples.allSatisfy { listed.contains($0) }, "\(listed)")
        // The game's cards came from beside the binary, not the current folder.
        let game = ctl(["game", "setup", "players=Ann,Bo"])
        #expect(game?["ok"]?.boolValue == true, "\(game?.serialized ?? "no reply")")
        #expect(status?["problems"]?.serialized.contains("/var/lib/rig") == false)
    }
}
