import Durable
import Foundation
import Stage

/// Updates rig itself from a package on a USB stick, on a rig installed from its
/// package. A stick the rig mounted (rig-media@.service) that holds a newer
/// `rig_VERSION_ARCH.deb` at its top is offered on the console; the operator's Update
/// starts rig-update@FILE.service through systemd (polkit lets the user `rig` start that
/// unit and no other), which installs the package as root with apt. The package's
/// postinst restarts the kiosk into the new version; a failed install changes nothing
/// and this kiosk says why. How it went is read from rig-update's status file, so the
/// new kiosk shows "installed" once, and any kiosk after a failure shows why once: the
/// ids answered with OK are kept in the state folder.
final class RigUpdater {
    /// The system's side, stood in for in tests.
    struct System: Sendable {
        /// The sticks the rig mounted, from /proc/self/mounts.
        var sticks: @Sendable () -> [ExportDestination] = {
            RemovableMounts.parse((try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? "").filter(\.ejectable)
        }
        /// rig-update's status file, nil while there is none.
        var status: @Sendable () -> String? = { try? String(contentsOfFile: RigUpdateStatus.path, encoding: .utf8) }
        /// Starts the install unit; why it could not, or nil.
        var startUnit: @Sendable (String) -> String? = { unit in
            do throws(SystemBus.Failure) {
                try SystemBus().startUnit(unit)
                return nil
            } catch {
                return error.description
            }
        }
        var installedVersion: @Sendable () -> String? = { RigPackageFinder.installedVersion() }
        var finder = RigPackageFinder()
    }

    /// The root helper the package installs; without it (a build run from its folder)
    /// nothing is offered.
    static let helper = "/usr/lib/rig/rig-update"
    static let pollSeconds = 2.0
    static let answeredName = "rig-update-answered"

    private enum Scan: Equatable {
        case scanning
        case found(RigUpdateOffer?)
        /// Offered and answered: not offered again until the stick comes back.
        case answered
    }

    private let stage: RigStage
    private let loop: EventLoop
    private let system: System
    private let answeredFile: URL
    private var installed: String?
    private var sticks: [String: Scan] = [:]
    /// Why systemd did not start an install the operator chose.
    private var refusal: RigUpdateCard?
    /// A card answered with OK, not shown again.
    private var dismissed: RigUpdateCard?
    private var answeredID: String?
    private var posted: RigUpdateCard?

    init(stage: RigStage, stateDirectory: String, loop: EventLoop, system: System = System()) {
        self.stage = stage
        self.loop = loop
        self.system = system
        answeredFile = URL(fileURLWithPath: stateDirectory).appendingPathComponent(Self.answeredName)
        answeredID = (try? String(contentsOf: answeredFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        stage.console.rigUpdateAnswered = { [weak self] card, update in self?.answered(card, update: update) }
    }

    /// Watches the sticks and the install when this rig was installed from its package;
    /// nil otherwise. Keep the result while the loop runs.
    static func start(stage: RigStage, stateDirectory: String, loop: EventLoop) -> RigUpdater? {
        guard FileManager.default.isExecutableFile(atPath: helper) else { return nil }
        let updater = RigUpdater(stage: stage, stateDirectory: stateDirectory, loop: loop)
        updater.poll()
        return updater
    }

    /// Looks at the sticks and the status file again, then shows what is due.
    func poll() {
        refresh()
        _ = loop.addTimer(at: loop.clock() + Self.pollSeconds) { [weak self] in self?.poll() }
    }

    func refresh() {
        let mounted = system.sticks()
        for gone in sticks.keys where !mounted.contains(where: { $0.path == gone }) { sticks[gone] = nil }
        for stick in mounted where sticks[stick.path] == nil {
            sticks[stick.path] = .scanning
            scan(stick)
        }
        show()
    }

    /// The card due now: the install's progress first, then an offer.
    var due: RigUpdateCard? {
        if let status = system.status().flatMap(RigUpdateStatus.parse), status.id != answeredID,
           status.card != dismissed {
            return status.card
        }
        if let refusal, refusal != dismissed { return refusal }
        let offers = sticks.keys.sorted().compactMap { path -> RigUpdateOffer? in
            if case let .found(offer?) = sticks[path] { offer } else { nil }
        }
        return offers.first.map(RigUpdateCard.offer)
    }

    private func show() {
        let card = due
        let shown: RigUpdateCard? = if case let .rigUpdate(shown) = stage.console.state.dialog { shown } else { nil }
        guard card != posted || (card != nil && card != shown) else { return }
        if card == nil && posted == nil { return }
        posted = card
        stage.handle(.rigUpdate(card))
    }

    /// Reads the stick's top folder on a thread of its own (a stick can be slow).
    private func scan(_ stick: ExportDestination) {
        let system = system
        let known = installed
        let box = LoopBound(self)
        let post = loop.mailbox
        Thread {
            let installed = known ?? system.installedVersion()
            let offer = installed.flatMap { system.finder.newest(on: stick, installed: $0) }
            post.post { box.value?.scanned(stick, offer: offer, installed: installed) }
        }.start()
    }

    private func scanned(_ stick: ExportDestination, offer: RigUpdateOffer?, installed: String?) {
        self.installed = self.installed ?? installed
        guard sticks[stick.path] == .scanning else { return }
        sticks[stick.path] = .found(offer)
        if let offer {
            KioskLog.notice("update: USB stick \(stick.label) holds rig \(offer.version) (\(offer.fileName)); this rig runs "
                + "\(offer.installed); offered on the console")
        } else if let installed {
            KioskLog.info("update: no rig package newer than \(installed) at the top of USB stick \(stick.label)")
        } else {
            KioskLog.warning("update: rig is not in dpkg's database (\(RigPackageFinder.dpkgStatus)); "
                + "the packages on USB stick \(stick.label) are not offered")
        }
        show()
    }

    private func answered(_ card: RigUpdateCard, update: Bool) {
        switch card {
        case let .offer(offer):
            for (path, scan) in sticks where scan == .found(offer) { sticks[path] = .answered }
            guard update else {
                KioskLog.info("update: rig \(offer.version) on \(offer.stick) not installed (Not now)")
                break
            }
            refusal = nil
            dismissed = nil
            start(offer)
        case .installing:
            dismissed = card
        case .failed, .installed:
            dismissed = card
            if card == refusal { refusal = nil }
            if let status = system.status().flatMap(RigUpdateStatus.parse), status.card == card {
                answeredID = status.id
                do throws(AtomicFileError) {
                    try AtomicFile.write(Data((status.id + "\n").utf8), to: answeredFile)
                } catch {
                    KioskLog.warning("update: cannot keep \(answeredFile.path): \(error)")
                }
            }
        }
        show()
    }

    /// The operator chose Update at the rig: systemd starts the install.
    private func start(_ offer: RigUpdateOffer) {
        let unit = Self.unitName(for: offer.path)
        KioskLog.notice("update: the operator chose to install rig \(offer.version) from \(offer.path) (\(unit))")
        let startUnit = system.startUnit
        let box = LoopBound(self)
        let post = loop.mailbox
        Thread {
            guard let failure = startUnit(unit) else { return }
            post.post { box.value?.notStarted(offer, failure) }
        }.start()
    }

    private func notStarted(_ offer: RigUpdateOffer, _ failure: String) {
        KioskLog.warning("update: the install of rig \(offer.version) did not start: \(failure)")
        refusal = .failed(version: offer.version, reason: "The install did not start: \(failure).")
        show()
    }

    /// The install unit for a package file: rig-update@ and the path as systemd escapes it
    /// (`systemd-escape --path`), which the unit reads back with %f.
    static func unitName(for path: String) -> String {
        "rig-update@" + MountUnitName.of(path).dropLast(".mount".count) + ".service"
    }
}
