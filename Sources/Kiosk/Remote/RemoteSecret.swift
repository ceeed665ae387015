import Foundation
import Prompter

/// The remote's secrets as text: random hex from the kernel's generator, compared in
/// constant time, and named in logs and on the console only by a short fingerprint
/// (the first 8 hex digits of their SHA-256), which identifies one without giving it.
package enum RemoteSecret {
    /// `bytes` random bytes in hex. The system generator is getrandom(2) on Linux.
    package static func random(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    package static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<x.count { difference |= x[index] ^ (index < y.count ? y[index] : 0) }
        return difference == 0
    }

    package static func fingerprint(_ secret: String) -> String { String(SHA256.hex(secret).prefix(8)) }
}

/// The one-time code a phone pairs with (in the pairing address and its QR code):
/// 128 random bits, good once and for five minutes. It is a moment of access, not
/// access: pairing trades it for the phone's own credential.
struct PairingCode: Equatable {
    static let lifetime = 300.0
    let value: String
    /// On the loop's clock.
    let expires: Double

    init(now: Double) {
        value = RemoteSecret.random(bytes: 16)
        expires = now + Self.lifetime
    }

    func matches(_ candidate: String?, at now: Double) -> Bool {
        guard let candidate, now < expires else { return false }
        return RemoteSecret.equal(value, candidate)
    }
}
