import Foundation

/// An address or a CIDR prefix of the remote allow list: "192.168.1.0/24", "::1".
struct AddressPrefix: Equatable, Sendable, CustomStringConvertible {
    let bytes: [UInt8]
    let length: Int

    init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let address = SocketAddress(host: String(parts[0]), port: 0) else { return nil }
        let bits = address.bytes.count * 8
        var length = bits
        if parts.count == 2 {
            guard let written = Int(parts[1]), (0...bits).contains(written) else { return nil }
            length = written
        }
        self.init(bytes: address.bytes, length: length)
    }

    init(bytes: [UInt8], length: Int) {
        // Host bits cleared, so two spellings of a prefix compare equal.
        self.bytes = bytes.enumerated().map { index, byte in
            let keep = max(0, min(8, length - index * 8))
            return keep == 8 ? byte : byte & ~(UInt8(0xff) >> UInt8(keep))
        }
        self.length = length
    }

    var isIPv4: Bool { bytes.count == 4 }
    var isLoopback: Bool { isIPv4 ? bytes[0] == 127 : bytes == [UInt8](repeating: 0, count: 15) + [1] }
    var isUnspecified: Bool { bytes.allSatisfy { $0 == 0 } }

    func widened(to bits: Int) -> AddressPrefix { AddressPrefix(bytes: bytes, length: min(length, bits)) }

    func contains(_ address: SocketAddress) -> Bool {
        guard address.bytes.count == bytes.count else { return false }
        return AddressPrefix(bytes: address.bytes, length: length).bytes == bytes
    }

    /// As systemd's IPAddressAllow= reads it.
    var description: String {
        let host = bytes.count == 4 ? bytes.map(String.init).joined(separator: ".") : ipv6Text
        return length == bytes.count * 8 ? host : "\(host)/\(length)"
    }

    private var ipv6Text: String {
        stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}
