import Foundation

extension RigConfig {
    /// `[remote]`: HTTP, the live event stream, OSC and the phone page. Off by default:
    /// nothing listens on the network unless rig.toml says so.
    struct Remote: Equatable, Sendable {
        var enabled = false
        /// The address the HTTP server (and OSC) listen on: one address, not "any",
        /// unless the file says "0.0.0.0" or "::".
        var bind = "127.0.0.1"
        /// HTTP port; 0 takes a free one (tests; `rig ctl status` tells which).
        var port = 8080
        /// OSC over UDP on the same address.
        var osc = false
        /// Its UDP port; 0 takes a free one.
        var oscPort = 9000
        /// "HOST:PORT" where state feedback is sent as OSC; "" = none.
        var oscFeedback = ""
        /// The pairing token; "" = a new random one at every start, shown on the inner
        /// display. At least 16 characters when set.
        var token = ""
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
            ConfigKey(path: "remote.token") { config, value in
                guard case let .scalar(.string(text)) = value else {
                    return "remote.token must be a string, found \(value.kindName)"
                }
                let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")
                guard text.isEmpty || (text.count >= 16 && text.count <= 128 && text.allSatisfy(allowed.contains)) else {
                    return "remote.token must be 16 to 128 letters, digits or - _ . ~ (or \"\" for a new one at each start)"
                }
                config.remote.token = text
                return nil
            },
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

    private static func address(_ path: String) -> ConfigKey {
        ConfigKey(path: path) { config, value in
            guard case let .scalar(.string(text)) = value, SocketAddress(host: text, port: 0) != nil else {
                return "\(path) must be a numeric IPv4 or IPv6 address such as \"127.0.0.1\" or \"192.168.1.10\""
            }
            config.remote.bind = text
            return nil
        }
    }
}

extension RigConfig.Remote {
    /// The allow list in force: as written, or derived from the bind address.
    var allowList: [AddressPrefix] {
        let written = allow.compactMap(AddressPrefix.init(parsing:))
        if !written.isEmpty { return written }
        let loopback = [AddressPrefix(parsing: "127.0.0.0/8"), AddressPrefix(parsing: "::1")].compactMap { $0 }
        guard let bound = AddressPrefix(parsing: bind) else { return loopback }
        if bound.isLoopback { return loopback }
        if bound.isUnspecified { return loopback + [AddressPrefix(parsing: "0.0.0.0/0"), AddressPrefix(parsing: "::/0")].compactMap { $0 } }
        return loopback + [bound.widened(to: bound.isIPv4 ? 24 : 64)]
    }
}
