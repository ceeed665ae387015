import Durable
import Foundation
import Glibc
import Stage

/// The first-run card of a rig written from the disk image. The image's first boot
/// leaves `first-run-card` in the state folder (image/rootfs/usr/lib/rig-image/first-boot);
/// while it is there the console shows the card. Its facts are looked up again every
/// few seconds, since DHCP answers after the kiosk has started; OK removes the file, so
/// the card is never shown again. A rig installed from the package has no such file
/// and never shows it, nor do the tests' kiosks.
final class FirstRunWelcome {
    static let markerName = "first-run-card"
    /// The image's own files: where there is a RIG partition to edit from a computer.
    static let imageFiles = "/usr/lib/rig-image"
    /// How often the address is looked up while the card is open.
    static let refreshSeconds = 3.0

    private let marker: URL
    private let config: RigConfig
    private let configPath: String
    private let stage: RigStage
    private let loop: EventLoop
    private var shown: FirstRunCard?
    private var answered = false

    private init(marker: URL, config: RigConfig, configPath: String, stage: RigStage, loop: EventLoop) {
        self.marker = marker
        self.config = config
        self.configPath = configPath
        self.stage = stage
        self.loop = loop
    }

    /// Shows the card when the image asked for it; nil otherwise. Keep the result while
    /// the loop runs.
    static func start(stage: RigStage, config: RigConfig, configPath: String, loop: EventLoop) -> FirstRunWelcome? {
        let marker = URL(fileURLWithPath: config.state.dir).appendingPathComponent(markerName)
        guard FileManager.default.fileExists(atPath: marker.path) else { return nil }
        let welcome = FirstRunWelcome(marker: marker, config: config, configPath: configPath, stage: stage, loop: loop)
        stage.console.firstRunDone = { [weak welcome] in welcome?.cardAnswered() }
        welcome.refresh()
        KioskLog.info("first run: the inner display shows the first-run card")
        return welcome
    }

    private func refresh() {
        guard !answered else { return }
        let card = FirstRunCard(hostname: Self.hostname(), addresses: Self.addresses(),
                                remotePort: config.remote.enabled ? config.remote.port : nil,
                                configPath: configPath, scriptsPath: config.scriptsDirectory,
                                rigPartition: FileManager.default.fileExists(atPath: Self.imageFiles))
        if card != shown {
            shown = card
            stage.handle(.firstRun(card))
        }
        _ = loop.addTimer(at: loop.clock() + Self.refreshSeconds) { [weak self] in self?.refresh() }
    }

    /// OK, Enter, Esc or a click on the card.
    private func cardAnswered() {
        answered = true
        if unlink(marker.path) != 0 && errno != ENOENT {
            KioskLog.warning("first run: cannot remove \(marker.path): \(String(cString: strerror(errno)))")
            return
        }
        try? AtomicFile.syncDirectory(marker.deletingLastPathComponent().path)
        KioskLog.info("first run: the operator answered the card; it is not shown again")
    }

    static func hostname() -> String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count) == 0 else { return "this rig" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Every address but loopback's, IPv4 first.
    static func addresses() -> [String] {
        let found = RemoteBindAddress.interfaceAddresses().filter { $0.interface != "lo" }
        return (found.filter(\.isIPv4) + found.filter { !$0.isIPv4 }).map(\.address)
    }
}
