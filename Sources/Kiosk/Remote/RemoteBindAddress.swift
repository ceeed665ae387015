import Foundation
import Glibc

/// `[remote] bind` as an address to listen on: a numeric address as written; "auto",
/// the address of the interface the default route goes through (what DHCP gave the
/// mini-PC); or an interface's name ("eth0", "wlan0"), its address. Looked up again
/// while the kiosk runs, so a new lease moves the remote with it (RemoteHost).
enum RemoteBindAddress {
    /// Whether `bind` names an interface (or "auto") rather than an address.
    static func isNamed(_ bind: String) -> Bool { SocketAddress(host: bind, port: 0) == nil }

    /// An interface name as Linux allows it (IFNAMSIZ, no slash or space), or "auto". A
    /// dot only before a VLAN number ("eth0.100"): "rig.local" is a host name, which the
    /// remote does not look up.
    static func isInterfaceName(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count < 16,
              text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.@".contains($0)) }) else { return false }
        guard let dot = text.lastIndex(of: ".") else { return true }
        let vlan = text[text.index(after: dot)...]
        return !vlan.isEmpty && vlan.allSatisfy(\.isNumber)
    }

    /// The address to listen on now; nil when the interface has none yet (no lease).
    static func resolve(_ bind: String) -> String? {
        guard isNamed(bind) else { return bind }
        let interface = bind == "auto" ? defaultRouteInterface() : bind
        let addresses = interfaceAddresses()
        if let interface {
            return addresses.first { $0.interface == interface && $0.isIPv4 }?.address
                ?? addresses.first { $0.interface == interface }?.address
        }
        // No default route (a studio network without a gateway): the first interface
        // that is up with an address other than loopback.
        return bind == "auto" ? addresses.first { $0.interface != "lo" && $0.isIPv4 }?.address : nil
    }

    /// The interface of the IPv4 default route, from the kernel's table.
    static func defaultRouteInterface(table: String? = try? String(contentsOfFile: "/proc/net/route", encoding: .utf8))
        -> String? {
        for line in (table ?? "").split(separator: "\n").dropFirst() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            // Iface Destination Gateway Flags ...; destination 0 is the default route, flag 1 up.
            if fields.count > 3, fields[1] == "00000000", (Int(fields[3], radix: 16) ?? 0) & 1 == 1 {
                return String(fields[0])
            }
        }
        return nil
    }

    struct InterfaceAddress {
        let interface: String
        let address: String
        var isIPv4: Bool { !address.contains(":") }
    }

    /// Every address of an interface that is up (IPv6 link-local left out: a phone
    /// cannot open it without a zone).
    static func interfaceAddresses() -> [InterfaceAddress] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [InterfaceAddress] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(entry.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, let raw = entry.pointee.ifa_addr,
                  let address = SocketAddress(UnsafePointer(raw)) else { continue }
            if !address.isIPv4 && address.host.lowercased().hasPrefix("fe80") { continue }
            found.append(InterfaceAddress(interface: String(cString: entry.pointee.ifa_name), address: address.host))
        }
        return found
    }
}
