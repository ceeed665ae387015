import Testing
@testable import Kiosk

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
            "rig.toml:2:8: remote.bind must be a numeric IPv4 or IPv6 address such as \"127.0.0.1\" or \"192.168.1.10\"",
            "rig.toml:3:9: remote.token must be 16 to 128 letters, digits or - _ . ~ (or \"\" for a new one at each start)",
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
            token = "0123456789abcdef-_.~"
            """
        let result = ConfigLoader.load(text: text, name: "rig.toml")
        #expect(result.errors.isEmpty)
        #expect(result.config.remote.allowList.map(\.description) == ["0:0:0:0:0:0:0:1", "192.168.0.0/16"])
        #expect(SocketAddress(parsing: result.config.remote.oscFeedback)?.port == 9001)
        #expect(PairingToken(configured: "").value.count == 32)
        #expect(PairingToken(configured: "").value != PairingToken(configured: "").value)
    }
}
