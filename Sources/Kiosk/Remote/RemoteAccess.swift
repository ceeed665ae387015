import Foundation
import Stage

/// Who may use the remote, and how they prove it. A phone pairs once with the one-time
/// code shown at the rig and is given its own credential, which the operator can revoke
/// on its own; Companion and scripts present a named API key from rig.toml. Nothing here
/// is a shared secret that lasts: capturing one phone's cookie gains that phone's access
/// until it is revoked, and the pairing code is spent once it is used.
final class RemoteAccess {
    /// Who made a request.
    enum Caller: Equatable {
        case device(PairedDevice)
        case apiKey(name: String)

        /// For the journal: a name and a fingerprint, never the credential.
        var description: String {
            switch self {
            case let .device(device): "phone \"\(device.name)\" (\(device.id))"
            case let .apiKey(name): "API key \"\(name)\""
            }
        }
    }

    static let deviceCookie = "rig_device"

    let devices: PairedDevices
    private let apiKeys: [(name: String, key: String)]
    /// The keys as the console and the journal name them.
    private let keysShown: [RemoteAccessShown.Key]
    private(set) var code: PairingCode?
    /// The QR code of the address last shown, made once per code, not per frame.
    private var qrCode: (text: String, matrix: QRMatrix?)?
    /// Paired or revoked, a code issued or spent: the console's panel is drawn again.
    var onChange: () -> Void = {}

    init(stateFolder: String, apiKeys: [String: String]) {
        devices = PairedDevices(stateFolder: stateFolder)
        self.apiKeys = apiKeys.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        keysShown = self.apiKeys.map { RemoteAccessShown.Key(name: $0.name, fingerprint: RemoteSecret.fingerprint($0.key)) }
    }

    /// A fresh one-time code, valid for five minutes (the previous one is void).
    @discardableResult
    func openPairing(at now: Double) -> PairingCode {
        let fresh = PairingCode(now: now)
        code = fresh
        onChange()
        return fresh
    }

    /// Ends a code that ran out, so the console stops showing it.
    func expire(at now: Double) {
        guard let code, now >= code.expires else { return }
        self.code = nil
        onChange()
    }

    /// Spends the code and pairs a device: its credential, or nil for a wrong or old code.
    func pair(code candidate: String?, name: String, at now: Double) -> (credential: String, device: PairedDevice)? {
        guard let code, code.matches(candidate, at: now) else { return nil }
        self.code = nil
        let credential = devices.add(name: Self.deviceName(name), at: Date())
        onChange()
        guard let device = devices.devices.last else { return nil }
        return (credential, device)
    }

    func revoke(_ id: String) -> PairedDevice? {
        let device = devices.revoke(id)
        if device != nil { onChange() }
        return device
    }

    /// The caller an HTTP request proves to be, if any: an API key (`X-Rig-Key`,
    /// `Authorization: Bearer`) or a paired device's cookie.
    func caller(of request: HTTPRequest) -> Caller? {
        if let key = Self.presentedKey(in: request) { return caller(presentingKey: key) }
        return request.cookies[Self.deviceCookie].flatMap(devices.device(presenting:)).map { .device($0) }
    }

    /// The named API key this is (OSC's last argument, an HTTP header).
    func caller(presentingKey key: String) -> Caller? {
        var found: Caller?
        for entry in apiKeys where RemoteSecret.equal(entry.key, key) { found = .apiKey(name: entry.name) }
        return found
    }

    /// What the console's remote panel and `rig ctl remote devices` show.
    func shown(pairingAddress: String?, now: Double) -> RemoteAccessShown {
        let address = code.flatMap { code in pairingAddress.map { "\($0)/pair?code=\(code.value)" } }
        if qrCode?.text != address { qrCode = address.map { ($0, PairingQRCode.matrix($0)) } }
        return RemoteAccessShown(
            pairingAddress: address, pairingQR: qrCode?.matrix,
            pairingExpires: code.map { Date(timeIntervalSinceNow: $0.expires - now) },
            devices: devices.devices.map { RemoteAccessShown.Device(id: $0.id, name: $0.name, paired: $0.paired) },
            apiKeys: keysShown)
    }

    private static func presentedKey(in request: HTTPRequest) -> String? {
        if let header = request.headers["x-rig-key"] { return header }
        if let authorization = request.headers["authorization"], authorization.lowercased().hasPrefix("bearer ") {
            return String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// The name a person gave their phone, cleaned: one line, printable, at most 40 characters.
    static func deviceName(_ raw: String) -> String {
        let cleaned = raw.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }
        let name = String(String.UnicodeScalarView(cleaned)).trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? "Phone" : String(name.prefix(40))
    }
}
