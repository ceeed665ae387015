import Foundation
import Testing
@testable import Kiosk
import Prompter

@Suite struct RemoteConfigTests {
    @Test func offByDefaultOnLoopback() {
        let config = ConfigLoader.load(text: "", name: "rig.toml").config
        #expect(config.remote.enabled == false)
        #expect(config.remote.bind == "127.0.0.1" && config.remote.port == 8080 && config.remote.osc == false)
    }

    @Test func badRemoteValuesNameTheirPlace() {
        let text = """
            [remote]
            bind = "rig.local"
            token = "short"
            allow = ["10.0.0.0/33"]
            osc_feedback = "host"
            port = 70000
            """
        let result = ConfigLoader.load(text: text, name: "rig.toml")
        #expect(result.errors.map(\.description) == [
            "rig.toml:2:8: remote.bind must be a numeric IPv4 or IPv6 address such as \"192.168.1.10\", \"auto\" (the address DHCP gave this machine) or an interface's name such as \"eth0\"",
            "rig.toml:3:9: remote.token is no longer used: phones pair with a one-time code (the rig's Settings, Pair a phone) and programs use a named key in [remote.api_keys]",
            "rig.toml:4:9: remote.allow entries must be addresses or prefixes such as \"192.168.1.0/24\" or \"::1\"",
            "rig.toml:5:16: remote.osc_feedback must be \"HOST:PORT\" with a numeric address such as \"192.168.1.20:9000\", found \"host\"",
            "rig.toml:6:8: remote.port must be between 0 and 65535, found 70000",
        ])
    }

    @Test func goodValuesAreKept() {
        let text = """
            [remote]
            enabled = true
            bind = "::1"
            allow = ["::1", "192.168.0.0/16"]
            osc_feedback = "[::1]:9001"
            osc_commands = "all"
            [remote.api_keys]
            companion = "0123456789abcdef0123456789abcdef"
            show-pc = "A-_.~456789abcdef0123456789abcdefXYZ"
            """
        let result = ConfigLoader.load(text: text, name: "rig.toml")
        #expect(result.errors.isEmpty)
        #expect(result.config.remote.allowList.map(\.description) == ["0:0:0:0:0:0:0:1", "192.168.0.0/16"])
        #expect(SocketAddress(parsing: result.config.remote.oscFeedback)?.port == 9001)
        #expect(result.config.remote.apiKeys == ["companion": "0123456789abcdef0123456789abcdef",
                                                 "show-pc": "A-_.~456789abcdef0123456789abcdefXYZ"])
        #expect(result.config.remote.oscCommands == "all")
    }

    @Test func apiKeysAreLongAndTheirNamesPlain() {
        let text = """
            [remote.api_keys]
            short = "0123456789abcdef"
            "bad name" = "0123456789abcdef0123456789abcdef"
            spaces = "0123456789abcdef 0123456789abcdef"
            """
        let result = ConfigLoader.load(text: text, name: "rig.toml")
        #expect(result.errors.map(\.description) == [
            "rig.toml:2:9: remote.api_keys.short must be 32 to 128 letters, digits or - _ . ~ (128 bits or more: `systemd-id128 new` prints one)",
            "rig.toml:3:14: remote.api_keys: the name \"bad name\" must be letters, digits, - or _",
            "rig.toml:4:10: remote.api_keys.spaces must be 32 to 128 letters, digits or - _ . ~ (128 bits or more: `systemd-id128 new` prints one)",
        ])
        #expect(result.config.remote.apiKeys.isEmpty)
    }

    @Test func bindNamesAnAddressAutoOrAnInterface() {
        for bind in ["auto", "eth0", "wlan0", "enp3s0", "eth0.100", "192.168.1.10", "::"] {
            let result = ConfigLoader.load(text: "[remote]\nbind = \"\(bind)\"\n", name: "rig.toml")
            #expect(result.errors.isEmpty, "\(bind): \(result.errors)")
        }
        for bind in ["rig.local", "eth 0", "", "a-very-long-interface-name"] {
            #expect(!ConfigLoader.load(text: "[remote]\nbind = \"\(bind)\"\n", name: "rig.toml").errors.isEmpty, "\(bind)")
        }
        // A named bind's peers are the private networks, the same in the drop-in.
        var remote = RigConfig.Remote()
        remote.bind = "auto"
        #expect(remote.allowList.map(\.description).contains("192.168.0.0/16"))
        #expect(!remote.allowList.map(\.description).contains("0.0.0.0/0"))
    }

    @Test func autoIsTheDefaultRoutesInterface() throws {
        let table = """
            Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask
            eth1\t0010A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF
            eth0\t00000000\t0100A8C0\t0003\t0\t0\t100\t00000000
            """
        #expect(RemoteBindAddress.defaultRouteInterface(table: table) == "eth0")
        #expect(RemoteBindAddress.defaultRouteInterface(table: "Iface\tDestination\n") == nil)
        #expect(RemoteBindAddress.resolve("lo") == "127.0.0.1")
        #expect(RemoteBindAddress.resolve("192.168.9.9") == "192.168.9.9")
        #expect(RemoteBindAddress.resolve("nosuch0") == nil)
        // This machine's own default route, read as the kernel lists it.
        if let interface = RemoteBindAddress.defaultRouteInterface() {
            let addresses = RemoteBindAddress.interfaceAddresses().filter { $0.interface == interface }.map(\.address)
            #expect(addresses.contains(RemoteBindAddress.resolve("auto") ?? "none"))
        }
    }

    @Test func aFileWithKeysThatEveryoneCanReadIsReported() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rig-keys-\(getpid()).toml").path
        defer { unlink(path) }
        try Data("[remote.api_keys]\ncompanion = \"0123456789abcdef0123456789abcdef\"\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        let open = ConfigLoader.load(path: path)
        #expect(open.warnings.map(\.description) == ["\(path): warning: holds [remote.api_keys] and every user of this machine "
            + "can read it: chmod 640 it (owner root, group rig), as the package installs it"])
        chmod(path, 0o640)
        #expect(ConfigLoader.load(path: path).problems.isEmpty)
    }

    @Test func pairingCodesAreRandomAndLastFiveMinutesOnce() {
        let code = PairingCode(now: 100)
        #expect(code.value.count == 32 && code.value != PairingCode(now: 100).value)
        #expect(code.matches(code.value, at: 100 + PairingCode.lifetime - 0.01))
        #expect(!code.matches(code.value, at: 100 + PairingCode.lifetime))
        #expect(!code.matches(String(code.value.dropLast()), at: 101))
        #expect(!code.matches(nil, at: 101))
    }

    @Test func sha256MatchesTheStandardsVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(String(repeating: "a", count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
