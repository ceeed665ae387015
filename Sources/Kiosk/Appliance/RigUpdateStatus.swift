import Stage

/// How the last install from a USB stick went, as rig-update (root) writes it to
/// /run/rig-update/status, whole (written aside, then renamed): `key=value` lines with
/// the install's id (systemd's invocation id), its state, the version and why it failed.
/// The kiosk that started the install and the new kiosk after the restart read it.
struct RigUpdateStatus: Equatable {
    enum State: String { case installing, installed, failed }

    var id: String
    var state: State
    var version: String
    var message: String

    static let path = "/run/rig-update/status"

    /// The status in `text`; nil when it is not one (a half-written file cannot be, but
    /// a file from another version of the helper might).
    static func parse(_ text: String) -> RigUpdateStatus? {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let id = fields["id"], !id.isEmpty, let state = fields["state"].flatMap(State.init(rawValue:)),
              let version = fields["version"] else { return nil }
        return RigUpdateStatus(id: id, state: state, version: version, message: fields["message"] ?? "")
    }

    /// The card the console shows for it.
    var card: RigUpdateCard {
        switch state {
        case .installing: .installing(version: version)
        case .installed: .installed(version: version)
        case .failed:
            .failed(version: version.isEmpty ? "from the USB stick" : version,
                    reason: message.isEmpty ? "The installer stopped without saying why." : message)
        }
    }
}
