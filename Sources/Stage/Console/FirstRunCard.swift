/// What the inner display says the first time a rig written from the disk image starts:
/// its name and address, how to pair a phone, where its configuration and scripts go.
/// The kiosk fills it in (and again as the network comes up); the console shows it as
/// a dialog until the operator presses OK, Enter or Esc.
package struct FirstRunCard: Equatable, Sendable {
    /// The rig's hostname (rig-XXXX on the image).
    package var hostname: String
    /// Its IPv4 and IPv6 addresses, loopback left out; empty while it has none.
    package var addresses: [String]
    /// `[remote] enabled` in rig.toml, and its port.
    package var remotePort: Int?
    /// The configuration file the kiosk read.
    package var configPath: String
    /// Where scripts go.
    package var scriptsPath: String
    /// The image's RIG partition is there: rig.toml and scripts/ can be edited on it from
    /// any computer.
    package var rigPartition: Bool

    package init(hostname: String, addresses: [String], remotePort: Int?, configPath: String, scriptsPath: String,
                 rigPartition: Bool) {
        self.hostname = hostname
        self.addresses = addresses
        self.remotePort = remotePort
        self.configPath = configPath
        self.scriptsPath = scriptsPath
        self.rigPartition = rigPartition
    }

    /// The card's paragraphs, first the title.
    package var paragraphs: [String] {
        let address = addresses.isEmpty
            ? "No network yet: plug in a network cable and its address shows here."
            : "Address: " + addresses.joined(separator: ", ")
        let phone = remotePort != nil
            ? "A phone as a remote: on Settings, Phones and remotes, press Pair a phone and scan the code."
            : "A phone as a remote: set enabled = true under [remote] in rig.toml and restart the rig; "
                + "then Settings, Phones and remotes, Pair a phone."
        let config = rigPartition
            ? "Settings: \(configPath). From any computer: edit rig.toml on this disk's RIG partition; "
                + "the rig copies it in at the next start."
            : "Settings: \(configPath)."
        let scripts = rigPartition
            ? "Scripts: \(scriptsPath), the RIG partition's scripts folder, or a USB stick."
            : "Scripts: \(scriptsPath), or a USB stick."
        return ["This is \(hostname), ready to prompt.", address, phone, config, scripts]
    }
}
