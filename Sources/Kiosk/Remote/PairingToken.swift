import Foundation

/// The secret a remote must present: the `X-Rig-Token` header, `Authorization:
/// Bearer`, or the cookie that `/pair?token=` sets; the last argument of an OSC
/// message. Compared in constant time.
package struct PairingToken: Sendable {
    static let cookieName = "rig_token"
    let value: String

    /// The configured token, or 128 random bits in hex.
    package init(configured: String) {
        if !configured.isEmpty { value = configured; return }
        // The system generator is getrandom(2) on Linux: the kernel's CSPRNG.
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        value = bytes.map { String(format: "%02x", $0) }.joined()
    }

    func matches(_ candidate: String?) -> Bool {
        guard let candidate else { return false }
        let a = Array(value.utf8), b = Array(candidate.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<a.count { difference |= a[index] ^ (index < b.count ? b[index] : 0) }
        return difference == 0
    }

    /// The token an HTTP request carries, wherever it carries it.
    static func presented(in request: HTTPRequest) -> String? {
        if let header = request.headers["x-rig-token"] { return header }
        if let authorization = request.headers["authorization"], authorization.lowercased().hasPrefix("bearer ") {
            return String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        }
        return request.cookies[cookieName]
    }
}
