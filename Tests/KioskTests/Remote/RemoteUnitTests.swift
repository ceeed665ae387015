import Foundation
import Testing
@testable import Kiosk

/// The systemd drop-in for `[remote]`: nothing opened while it is off; with it on,
/// the address families and the peers of the allow list, and the unit's exposure as
/// `systemd-analyze security` rates it stays at most 2.0.
@Suite struct RemoteUnitTests {
    @Test func offOpensNothing() {
        let text = RemoteUnitCommand.dropIn(RigConfig.Remote(), source: "rig.toml")
        #expect(!text.contains("[Service]"))
        #expect(!text.contains("IPAddressAllow"))
    }

    @Test func onOpensTheBindsNetworkOnly() {
        var remote = RigConfig.Remote()
        remote.enabled = true
        remote.bind = "192.168.1.10"
        let lines = RemoteUnitCommand.dropIn(remote, source: "rig.toml").split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("IPAddressAllow=") }
            == ["IPAddressAllow=127.0.0.0/8", "IPAddressAllow=0:0:0:0:0:0:0:1", "IPAddressAllow=192.168.1.0/24"])
        #expect(lines.contains("RestrictAddressFamilies=AF_INET AF_INET6"))
        remote.allow = ["10.0.0.5", "10.1.0.0/16"]
        let written = RemoteUnitCommand.dropIn(remote, source: "rig.toml")
        #expect(written.contains("IPAddressAllow=10.0.0.5\n") && written.hasSuffix("IPAddressAllow=10.1.0.0/16"))
        #expect(!written.contains("192.168.1.0/24"))
    }

    @Test func theAllowListIsWhatTheKioskAccepts() throws {
        var remote = RigConfig.Remote()
        remote.bind = "192.168.1.10"
        let allow = remote.allowList
        func accepted(_ host: String) -> Bool {
            guard let peer = SocketAddress(host: host, port: 1) else { return false }
            return allow.contains { $0.contains(peer) }
        }
        #expect(accepted("192.168.1.77") && accepted("127.0.0.1") && accepted("::1"))
        #expect(!accepted("192.168.2.1") && !accepted("10.0.0.1") && !accepted("fe80::1"))
        remote.bind = "127.0.0.1"
        #expect(remote.allowList.map(\.description) == ["127.0.0.0/8", "0:0:0:0:0:0:0:1"])
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")))
    func theExposureStaysAtMostTwo() throws {
        var remote = RigConfig.Remote()
        remote.enabled = true
        remote.bind = "192.168.1.10"
        let unit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../systemd/rig.service")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-unit-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let merged = folder.appendingPathComponent("rig.service")
        try Data((try String(contentsOf: unit, encoding: .utf8) + "\n" + RemoteUnitCommand.dropIn(remote, source: "t") + "\n").utf8)
            .write(to: merged)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        process.arguments = ["security", "--offline=true", merged.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let level = output.components(separatedBy: "Overall exposure level for rig.service: ").last?
            .split(separator: " ").first.flatMap { Double($0) }
        print("rig.service exposure with [remote] on: \(level.map { String($0) } ?? "?")")
        #expect(level != nil && level! <= 2.0)
    }
}
