import Foundation
import Glibc

/// A numeric IPv4 or IPv6 address with a port, as the kernel's sockaddr wants it.
/// Host names are not resolved: a kiosk at boot may have no DNS, and rig.toml should
/// say exactly where it listens.
package struct SocketAddress: Equatable, Sendable, CustomStringConvertible {
    /// The address bytes (4 or 16) and the port.
    let bytes: [UInt8]
    let port: UInt16

    package init?(host: String, port: Int) {
        guard (0...65535).contains(port) else { return nil }
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
        self.port = UInt16(port)
    }

    /// "HOST:PORT", "[V6]:PORT".
    init?(parsing text: String) {
        var host = Substring(text), portText = Substring("")
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
        } else if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            return nil
        }
        guard let port = Int(portText), port > 0 else { return nil }
        self.init(host: String(host), port: port)
    }

    init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let v4 = UnsafeRawPointer(address).load(as: sockaddr_in.self)
            var raw = v4.sin_addr
            bytes = withUnsafeBytes(of: &raw) { Array($0) }
            port = UInt16(bigEndian: v4.sin_port)
        case AF_INET6:
            let v6 = UnsafeRawPointer(address).load(as: sockaddr_in6.self)
            var raw = v6.sin6_addr
            let all = withUnsafeBytes(of: &raw) { Array($0) }
            // An IPv4 peer on a dual-stack socket arrives as ::ffff:a.b.c.d.
            bytes = all[0..<12] == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] ? Array(all[12...]) : all
            port = UInt16(bigEndian: v6.sin6_port)
        default:
            return nil
        }
    }

    var isIPv4: Bool { bytes.count == 4 }
    var family: Int32 { isIPv4 ? AF_INET : AF_INET6 }

    var host: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var raw = bytes
        _ = inet_ntop(family, &raw, &text, socklen_t(text.count))
        return String(cString: text)
    }

    package var description: String { isIPv4 ? "\(host):\(port)" : "[\(host)]:\(port)" }

    /// Calls `body` with this address as a sockaddr and its length.
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        if isIPv4 {
            var v4 = sockaddr_in()
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &v4.sin_addr) { $0.copyBytes(from: bytes) }
            return withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        var v6 = sockaddr_in6()
        v6.sin6_family = sa_family_t(AF_INET6)
        v6.sin6_port = port.bigEndian
        withUnsafeMutableBytes(of: &v6.sin6_addr) { $0.copyBytes(from: bytes) }
        return withUnsafePointer(to: &v6) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
    }
}

/// The OSC feedback target, "HOST:PORT".
typealias OSCPeer = SocketAddress
