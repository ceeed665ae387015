import Foundation

extension RigConfig {
    /// `[remote]`: HTTP, the live event stream, OSC and the phone page. Off by default:
    /// nothing listens on the network unless rig.toml says so.
    struct Remote: Equatable, Sendable {
        var enabled = false
        /// The address the HTTP server (and OSC) listen on: one address, not "any",
        /// unless the file says "0.0.0.0" or "::"; or "auto" (the default route's
        /// interface) or an interface's name ("eth0"), whose address is followed.
        var bind = "127.0.0.1"
        /// HTTP port; 0 takes a free one (tests; `rig ctl status` tells which).
        var port = 8080
        /// OSC over UDP on the same address.
        var osc = false
        /// Its UDP port; 0 takes a free one.
        var oscPort = 9000
        /// "HOST:PORT" where state feedback is sent as OSC; "" = none.
        var oscFeedback = ""
        /// Named API keys for Companion and scripts (`[remote.api_keys]`, name = key):
        /// sent as `X-Rig-Key` (or `Authorization: Bearer`), and as OSC's last argument.
        /// Phones do not use them: they pair with a one-time code and get their own.
        var apiKeys: [String: String] = [:]
        /// What OSC may do: "limited" (transport, speed, markers, the game's send, stop
        /// and verdict) or "all".
        var oscCommands = "limited"
        /// Peers allowed to connect (addresses or CIDR prefixes); empty = derived from
        /// `bind` (loopback for a loopback bind, else the bind's /24 or /64 and loopback).
        /// The systemd drop-in (`rig remote-unit`) opens IPAddressAllow= for the same.
        var allow: [String] = []
        /// Requests per second from one peer address (a burst of as many is allowed).
        var requestsPerSecond = 300
        /// Largest request body in KiB.
        var maxBodyKB = 64
        /// Seconds a connection may sit idle (half-sent headers, a stalled body).
        var timeout = 10
        /// Connections at once, in all and from one address.
        var maxConnections = 64
        var maxConnectionsPerAddress = 16
        /// The phone page's folder; "" = the installed one (or the checkout's).
        var pageDir = ""
    }
}

/// The rig.toml keys of `[remote]`.
enum RemoteConfigKeys {
    static var keys: [ConfigKey] {
        [
            ConfigSchema.bool("remote.enabled", \.remote.enabled),
            address("remote.bind"),
            ConfigSchema.int("remote.port", 0...65535, \.remote.port),
            ConfigSchema.bool("remote.osc", \.remote.osc),
            ConfigSchema.int("remote.osc_port", 0...65535, \.remote.oscPort),
            ConfigKey(path: "remote.osc_feedback") { config, value in
                guard case let .scalar(.string(text)) = value else {
                    return "remote.osc_feedback must be a string \"HOST:PORT\", found \(value.kindName)"
                }
                guard text.isEmpty || OSCPeer(parsing: text) != nil else {
                    return "remote.osc_feedback must be \"HOST:PORT\" with a numeric address such as \"192.168.1.20:9000\", found \"\(text)\""
                }
                config.remote.oscFeedback = text
                return nil
            },
            ConfigSchema.oneOf("remote.osc_commands", ["limited", "all"], \.remote.oscCommands),
            ConfigKey(path: "remote.allow") { config, value in
                guard case let .array(items) = value else {
                    return "remote.allow must be an array of addresses or prefixes such as [\"192.168.1.0/24\"], found \(value.kindName)"
                }
                var entries: [String] = []
                for item in items {
                    guard case let .string(text) = item, AddressPrefix(parsing: text) != nil else {
                        return "remote.allow entries must be addresses or prefixes such as \"192.168.1.0/24\" or \"::1\""
                    }
                    entries.append(text)
                }
                config.remote.allow = entries
                return nil
            },
            ConfigSchema.int("remote.requests_per_second", 1...10_000, \.remote.requestsPerSecond),
            ConfigSchema.int("remote.max_body_kb", 1...1024, \.remote.maxBodyKB),
            ConfigSchema.int("remote.timeout", 1...300, \.remote.timeout),
            ConfigSchema.int("remote.max_connections", 4...1024, \.remote.maxConnections),
            ConfigSchema.int("remote.max_connections_per_address", 2...1024, \.remote.maxConnectionsPerAddress),
            ConfigSchema.string("remote.page_dir", \.remote.pageDir),
        ]
    }

    /// The shared token of earlier versions (one secret for every phone, forever): an
    /// error that says what took its place. Not a key the example documents.
    static var retiredToken: ConfigKey { ConfigKey(path: "remote.token") { _, _ in
        "remote.token is no longer used: phones pair with a one-time code (the rig's Settings, Pair a phone) "
            + "and programs use a named key in [remote.api_keys]"
    } }

    /// `[remote.api_keys]` NAME = "KEY": a name of letters, digits, - or _, and a key of
    /// at least 32 characters (128 bits as hex, what `systemd-id128 new` prints).
    static func apiKey(_ name: String) -> ConfigKey {
        ConfigKey(path: "remote.api_keys.\(name)") { config, value in
            guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                return "remote.api_keys: the name \"\(name)\" must be letters, digits, - or _"
            }
            guard case let .scalar(.string(key)) = value else {
                return "remote.api_keys.\(name) must be a string, found \(value.kindName)"
            }
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")
            guard key.count >= 32, key.count <= 128, key.allSatisfy(allowed.contains) else {
                return "remote.api_keys.\(name) must be 32 to 128 letters, digits or - _ . ~ (128 bits or more: "
                    + "`systemd-id128 new` prints one)"
            }
            config.remote.apiKeys[name] = key
            return nil
        }
    }

    private static func address(_ path: String) -> ConfigKey {
        ConfigKey(path: path) { config, value in
            guard case let .scalar(.string(text)) = value,
                  SocketAddress(host: text, port: 0) != nil || RemoteBindAddress.isInterfaceName(text) else {
                return "\(path) must be a numeric IPv4 or IPv6 address such as \"192.168.1.10\", \"auto\" "
                    + "(the address DHCP gave this machine) or an interface's name such as \"eth0\""
            }
            config.remote.bind = text
            return nil
        }
    }
}

extension RigConfig.Remote {
    /// The allow list in force: as written, or derived from the bind address; for a
    /// named bind ("auto", "eth0"), whose address a lease decides, the private networks
    /// (a studio's or a home's), link-local and loopback, so the systemd drop-in, written
    /// before any lease, allows the same peers as the kiosk.
    var allowList: [AddressPrefix] {
        let written = allow.compactMap(AddressPrefix.init(parsing:))
        if !written.isEmpty { return written }
        let loopback = [AddressPrefix(parsing: "127.0.0.0/8"), AddressPrefix(parsing: "::1")].compactMap { $0 }
        if RemoteBindAddress.isNamed(bind) {
            return loopback + ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "fc00::/7", "fe80::/10"]
                .compactMap(AddressPrefix.init(parsing:))
        }
        guard let bound = AddressPrefix(parsing: bind) else { return loopback }
        if bound.isLoopback { return loopback }
        if bound.isUnspecified { return loopback + [AddressPrefix(parsing: "0.0.0.0/0"), AddressPrefix(parsing: "::/0")].compactMap { $0 } }
        return loopback + [bound.widened(to: bound.isIPv4 ? 24 : 64)]
    }
}
