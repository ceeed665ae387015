import Foundation

/// The network remote's access as the rig's operator sees it: the one-time pairing
/// address while a code is open, the paired phones, the API keys by name. The kiosk's
/// remote service is the port; with the remote off there is none.
package protocol RemoteAccessPort: AnyObject {
    var shown: RemoteAccessShown { get }
    /// `rig ctl remote ACTION` and the console's buttons: devices, pair, revoke.
    func request(action: String, id: String?) -> ControlReply
}

/// What the console's Remote panel draws, as a value (a frame redraws when it changes).
package struct RemoteAccessShown: Equatable, Sendable {
    package struct Device: Equatable, Sendable {
        /// The credential's fingerprint, never the credential.
        package var id: String
        package var name: String
        package var paired: Date

        package init(id: String, name: String, paired: Date) {
            self.id = id
            self.name = name
            self.paired = paired
        }
    }

    package struct Key: Equatable, Sendable {
        package var name: String
        package var fingerprint: String

        package init(name: String, fingerprint: String) {
            self.name = name
            self.fingerprint = fingerprint
        }
    }

    /// The address a phone opens to pair, while a code is open (it holds the code).
    package var pairingAddress: String?
    /// The same address as a QR code, for the phone's camera.
    package var pairingQR: QRMatrix?
    package var pairingExpires: Date?
    package var devices: [Device]
    package var apiKeys: [Key]

    package init(pairingAddress: String?, pairingQR: QRMatrix? = nil, pairingExpires: Date?, devices: [Device],
                 apiKeys: [Key]) {
        self.pairingAddress = pairingAddress
        self.pairingQR = pairingQR
        self.pairingExpires = pairingExpires
        self.devices = devices
        self.apiKeys = apiKeys
    }

    /// `rig ctl remote devices`: names, fingerprints and times; the pairing address only
    /// goes to the local socket's caller, who stands at the rig.
    package var json: JSONValue {
        [
            "devices": .array(devices.map { ["id": .string($0.id), "name": .string($0.name),
                                             "paired": .string(TimeText.iso8601($0.paired))] }),
            "api_keys": .array(apiKeys.map { ["name": .string($0.name), "fingerprint": .string($0.fingerprint)] }),
            "pairing": .optional(pairingAddress),
            "pairing_expires": .optional(pairingExpires.map(TimeText.iso8601)),
        ]
    }
}
