/// A newer rig found in a package on a USB stick the rig mounted.
package struct RigUpdateOffer: Equatable, Sendable {
    /// The stick's label, as the share sheet names it.
    package var stick: String
    /// The package file, at the top of the stick.
    package var path: String
    /// The package's version.
    package var version: String
    /// The version this rig runs.
    package var installed: String

    package init(stick: String, path: String, version: String, installed: String) {
        self.stick = stick
        self.path = path
        self.version = version
        self.installed = installed
    }

    /// The file's name, without the stick's folder.
    package var fileName: String { String(path.split(separator: "/").last ?? Substring(path)) }
}

/// What the console's update dialog says: the offer of a newer rig from a USB stick,
/// then how its install goes. The kiosk finds the package and has systemd run the
/// install as root (rig-update@.service); the operator's Update, pressed at the rig, is
/// the only thing that starts it: never the remote, never the stick alone.
package enum RigUpdateCard: Equatable, Sendable {
    case offer(RigUpdateOffer)
    case installing(version: String)
    /// The install did not happen: this version keeps running.
    case failed(version: String, reason: String)
    /// Shown by the new kiosk after its restart.
    case installed(version: String)

    /// The dialog's first line.
    package var title: String {
        switch self {
        case let .offer(offer): "Update rig to \(offer.version)?"
        case let .installing(version): "Installing rig \(version)…"
        case let .failed(version, _): "rig \(version) was not installed."
        case let .installed(version): "rig \(version) is installed."
        }
    }

    /// The paragraphs under the title.
    package var paragraphs: [String] {
        switch self {
        case let .offer(offer):
            ["The USB stick \(offer.stick) holds \(offer.fileName). This rig runs \(offer.installed).",
             "The rig restarts into the new version when the install is done; if it fails, this version keeps running."]
        case .installing:
            ["Do not pull out the USB stick or switch the rig off. The rig restarts into the new version when it is done."]
        case let .failed(_, reason):
            [reason, "This version keeps running. The journal has the installer's whole output (journalctl -u 'rig-update@*')."]
        case .installed:
            ["The rig restarted into it. Nothing else changed: scripts, settings and recordings are as they were."]
        }
    }

    /// How `rig ctl status` names the dialog.
    package var statusName: String {
        switch self {
        case .offer: "rig_update_offer"
        case .installing: "rig_update_installing"
        case .failed: "rig_update_failed"
        case .installed: "rig_update_installed"
        }
    }

    /// The offer is a question; the rest are notices answered with OK.
    package var isOffer: Bool {
        if case .offer = self { true } else { false }
    }
}
