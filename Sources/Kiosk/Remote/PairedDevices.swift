import Foundation
import Prompter

/// One phone (or tablet) that paired: what the console lists and revokes. The rig keeps
/// only the SHA-256 of its credential, so the file pairs nothing if copied.
struct PairedDevice: Codable, Equatable {
    /// The credential's fingerprint: how the console, status and journal name it.
    var id: String
    var name: String
    var paired: Date
    /// SHA-256 of the credential, hex.
    var digest: String
}

/// The paired devices, kept in the state folder (`remote-devices.json`, written
/// crash-safely) so a phone stays paired across restarts until the operator revokes it.
final class PairedDevices {
    static let fileName = "remote-devices.json"
    /// More than a studio has phones; a pairing past it replaces the oldest.
    static let limit = 32

    private let file: JSONStateFile
    private(set) var devices: [PairedDevice] = []
    /// Why the file could not be read or written, for the inner banner; nil when fine.
    private(set) var problem: String?

    init(stateFolder: String) {
        file = JSONStateFile(url: URL(fileURLWithPath: stateFolder).appendingPathComponent(Self.fileName))
        switch file.load(decode: { try JSONDecoder().decode([PairedDevice].self, from: $0) }) {
        case let .loaded(list): devices = list
        case .missing: break
        case let .unreadable(message): problem = "paired devices: \(message); phones must pair again"
        }
    }

    /// The device whose credential this is.
    func device(presenting credential: String) -> PairedDevice? {
        let digest = SHA256.hex(credential)
        // Every entry is compared, in constant time, so timing tells nothing of which.
        var found: PairedDevice?
        for device in devices where RemoteSecret.equal(device.digest, digest) { found = device }
        return found
    }

    /// Pairs a device: returns its new credential (given to it once, never stored).
    func add(name: String, at date: Date) -> String {
        let credential = RemoteSecret.random(bytes: 32)
        let device = PairedDevice(id: RemoteSecret.fingerprint(credential), name: name, paired: date,
                                  digest: SHA256.hex(credential))
        devices.append(device)
        if devices.count > Self.limit { devices.removeFirst(devices.count - Self.limit) }
        save()
        return credential
    }

    /// Forgets a device: its credential opens nothing from now on.
    func revoke(_ id: String) -> PairedDevice? {
        guard let index = devices.firstIndex(where: { $0.id == id }) else { return nil }
        let device = devices.remove(at: index)
        save()
        return device
    }

    private func save() {
        do {
            try file.save(devices)
            problem = nil
        } catch {
            problem = "paired devices: \(error); a pairing lasts until the kiosk stops"
        }
    }
}
