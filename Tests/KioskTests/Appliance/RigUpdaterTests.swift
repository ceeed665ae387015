import Foundation
import Synchronization
import Testing
@testable import Kiosk
@testable import Stage

/// rig updated from a package on a USB stick (issue 43): which file is offered, the
/// console's dialog answered with its keys, the install's progress read from
/// rig-update's status file, and each outcome said once. Versions are compared by the
/// system's own dpkg. The install itself, as root through systemd and apt, is proven in
/// the virtual rig (vrig/tests/appliance_update.py).
@Suite(.serialized) struct RigUpdaterTests {
    /// A folder standing for a stick the rig mounted, holding files with these names.
    static func stick(_ names: [String], label: String = "RIGSTICK") throws -> ExportDestination {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("rig-update-\(UUID().uuidString)").appendingPathComponent(label)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in names {
            if name.hasSuffix("/") {
                try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
            } else {
                try Data("not read by the kiosk".utf8).write(to: folder.appendingPathComponent(name))
            }
        }
        return ExportDestination(name: "USB: \(label)", path: folder.path, kind: .removable, ejectable: true)
    }

    @Test func theNewestRigPackageAtTheTopOfTheStickIsOffered() throws {
        let stick = try Self.stick(["rig_1.0_amd64.deb", "rig_1.2_amd64.deb", "rig_1.10_amd64.deb", "rig_2.0_arm64.deb",
                                    "other_3.0_amd64.deb", "rig_0.9_amd64.deb", "rig_5.0_amd64.deb/", "._rig_4.0_amd64.deb",
                                    "rig_3.0_amd64.deb.partial", "notes.txt"])
        var finder = RigPackageFinder()
        finder.architectures = ["amd64", "all"]
        let offer = try #require(finder.newest(on: stick, installed: "1.1"))
        // By Debian's rules 1.10 is newer than 1.2; arm64, folders and other packages are not this rig's.
        #expect(offer.version == "1.10")
        #expect(offer.path == stick.path + "/rig_1.10_amd64.deb")
        #expect(offer.stick == "RIGSTICK" && offer.installed == "1.1" && offer.fileName == "rig_1.10_amd64.deb")
        #expect(finder.newest(on: stick, installed: "1.10") == nil, "nothing newer than what runs")
        #expect(finder.newest(on: stick, installed: "1:0.1") == nil, "an epoch outranks every version without one")
    }

    @Test func packageNamesAreReadAsDebianWritesThem() {
        #expect(RigPackageFinder.parse("rig_0.1.0+git638.b12ddb0_amd64.deb")! == ("0.1.0+git638.b12ddb0", "amd64"))
        #expect(RigPackageFinder.parse("rig_1%3a2.0~rc1_all.deb")! == ("1:2.0~rc1", "all"))
        #expect(RigPackageFinder.parse("rig_2.0_amd64.DEB")! == ("2.0", "amd64"))
        for name in ["rig.deb", "rig_2.0.deb", "rig__amd64.deb", "rig_v2_amd64.deb", "rig_2.0$(reboot)_amd64.deb",
                     "rig_2.0 copy_amd64.deb", "rigx_2.0_amd64.deb", "rig_2.0_amd64.deb.txt"] {
            #expect(RigPackageFinder.parse(name) == nil, "\(name)")
        }
    }

    /// The kiosk orders versions itself; dpkg is the judge.
    @Test func versionsAreOrderedAsDpkgOrdersThem() throws {
        let versions = ["0.1.0", "0.1.0+dev", "0.1.0+git638.b12ddb0", "0.1.0+git638.b12ddb0+update1", "0.1.0+git64.aaa",
                        "0.1.0~rc1", "0.1.0~~", "0.1", "0.1.0-1", "0.1.0-1~bpo12", "0.1.0-10", "0.1.0-2", "1:0.0.1",
                        "0.10.0", "0.9.9", "0.1.0a", "0.1.0.", "0.1.0+", "00.1.0", "2.0", "2.0-0", "10", "9a", "a"]
        var checked = 0
        for a in versions {
            for b in versions where a != b {
                let dpkg = Process()
                dpkg.executableURL = URL(fileURLWithPath: "/usr/bin/dpkg")
                dpkg.arguments = ["--compare-versions", a, "gt", b]
                dpkg.standardError = FileHandle.nullDevice
                try dpkg.run()
                dpkg.waitUntilExit()
                #expect(DebianVersion.isNewer(a, than: b) == (dpkg.terminationStatus == 0), "\(a) > \(b)")
                checked += 1
            }
        }
        #expect(checked == versions.count * (versions.count - 1))
    }

    @Test func theInstalledVersionIsReadFromDpkgsDatabase() {
        let status = """
        Package: rig-tools
        Status: install ok installed
        Version: 9.0

        Package: rig
        Status: deinstall ok config-files
        Version: 0.0.1

        Package: rig
        Status: install ok installed
        Priority: optional
        Description: teleprompter
         Version: 7.7 in a description line
        Version: 0.1.0+git640.abc

        """
        #expect(RigPackageFinder.installedVersion(inStatus: status) == "0.1.0+git640.abc")
        #expect(RigPackageFinder.installedVersion(inStatus: "Package: rig\nStatus: deinstall ok config-files\nVersion: 1\n") == nil)
        #expect(RigPackageFinder.installedVersion(statusFile: "/nonexistent/status") == nil)
    }

    /// The name of the unit is the path as `systemd-escape --path` writes it.
    @Test func theInstallUnitNamesThePathAsSystemdEscapesIt() throws {
        let path = "/run/media/rig/MY-STICK/rig_1.0+git5_amd64.deb"
        #expect(RigUpdater.unitName(for: path) == "rig-update@run-media-rig-MY\\x2dSTICK-rig_1.0\\x2bgit5_amd64.deb.service")
        let escape = Process()
        escape.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-escape")
        escape.arguments = ["--path", "--template=rig-update@.service", path]
        let pipe = Pipe()
        escape.standardOutput = pipe
        try escape.run()
        escape.waitUntilExit()
        let escaped = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(escaped.trimmingCharacters(in: .whitespacesAndNewlines) == RigUpdater.unitName(for: path))
    }

    /// The system as the updater sees it: one stick, a status file the test writes as
    /// rig-update would, and the units started.
    final class FakeSystem: Sendable {
        let sticks = Mutex<[ExportDestination]>([])
        let status = Mutex<String?>(nil)
        let started = Mutex<[String]>([])
        let refusal = Mutex<String?>(nil)
        var startedUnits: [String] { started.withLock { $0 } }

        var system: RigUpdater.System {
            var system = RigUpdater.System()
            system.sticks = { self.sticks.withLock { $0 } }
            system.status = { self.status.withLock { $0 } }
            system.startUnit = { unit in
                self.started.withLock { $0.append(unit) }
                return self.refusal.withLock { $0 }
            }
            system.installedVersion = { "1.0" }
            return system
        }

        func write(id: String, state: String, version: String, message: String = "") {
            status.withLock { $0 = "id=\(id)\nstate=\(state)\nversion=\(version)\nmessage=\(message)\n" }
        }
    }

    func dialog(_ rig: ConsoleHarness) -> RigUpdateCard? {
        if case let .rigUpdate(card)? = rig.state.dialog { card } else { nil }
    }

    @Test func updateChosenWithTheKeysStartsTheInstallAndItsOutcomeIsSaidOnce() throws {
        let rig = try ConsoleHarness()
        let fake = FakeSystem()
        let stick = try Self.stick(["rig_1.5_amd64.deb"])
        fake.sticks.withLock { $0 = [stick] }
        let updater = RigUpdater(stage: rig.app.stage, stateDirectory: rig.root.path, loop: rig.app.loop,
                                 system: fake.system)
        updater.refresh()
        #expect(rig.run(until: { dialog(rig)?.isOffer == true }), "the stick's package offered")
        guard case let .offer(offer)? = dialog(rig) else { return }
        #expect(offer.version == "1.5" && offer.installed == "1.0" && offer.stick == "RIGSTICK")
        #expect(rig.console.state.statusJSON["dialog"] == "rig_update_offer")
        rig.settle()
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-update-offer")
        // Not now has the focus: Enter alone installs nothing.
        #expect(rig.state.focus == "dialog:cancel")
        rig.key("Tab")
        #expect(rig.state.focus == "dialog:confirm")
        rig.key("Enter")
        #expect(dialog(rig) == .installing(version: "1.5"))
        #expect(rig.run(until: { !fake.startedUnits.isEmpty }))
        #expect(fake.startedUnits == [RigUpdater.unitName(for: stick.path + "/rig_1.5_amd64.deb")])

        // rig-update's progress, then its failure: said with its reason, answered with OK.
        fake.write(id: "run-1", state: "installing", version: "1.5")
        updater.refresh()
        #expect(dialog(rig) == .installing(version: "1.5"))
        fake.write(id: "run-1", state: "failed", version: "1.5", message: "Unmet dependencies: rig-missing-library")
        updater.refresh()
        #expect(dialog(rig) == .failed(version: "1.5", reason: "Unmet dependencies: rig-missing-library"))
        #expect(rig.console.state.statusJSON["dialog"] == "rig_update_failed")
        rig.key("Enter")
        #expect(rig.state.dialog == nil)
        updater.refresh()
        #expect(rig.state.dialog == nil, "the offer answered is not made again while the stick stays")
        let answered = try? String(contentsOf: rig.root.appendingPathComponent(RigUpdater.answeredName), encoding: .utf8)
        #expect(answered == "run-1\n")

        // A kiosk started later (a restart) does not say it again; a new install's outcome it does.
        let later = RigUpdater(stage: rig.app.stage, stateDirectory: rig.root.path, loop: rig.app.loop,
                               system: fake.system)
        fake.sticks.withLock { $0 = [] }
        later.refresh()
        #expect(rig.state.dialog == nil)
        fake.write(id: "run-2", state: "installed", version: "1.5")
        later.refresh()
        #expect(dialog(rig) == .installed(version: "1.5"))
        rig.console.show(.library)
        #expect(dialog(rig) == .installed(version: "1.5"), "a card about the rig stays when the screen changes")
        rig.key("Escape")
        later.refresh()
        #expect(rig.state.dialog == nil)
        withExtendedLifetime(updater) {}
    }

    @Test func notNowWaitsForTheStickToComeBackAndAPulledStickTakesItsOfferAlong() throws {
        let rig = try ConsoleHarness()
        let fake = FakeSystem()
        let stick = try Self.stick(["rig_2.0_all.deb"])
        fake.sticks.withLock { $0 = [stick] }
        let updater = RigUpdater(stage: rig.app.stage, stateDirectory: rig.root.path, loop: rig.app.loop,
                                 system: fake.system)
        updater.refresh()
        #expect(rig.run(until: { dialog(rig)?.isOffer == true }))
        rig.settle()
        rig.key("Enter")  // on Not now
        #expect(rig.state.dialog == nil)
        updater.refresh()
        #expect(rig.state.dialog == nil)
        #expect(fake.startedUnits.isEmpty)
        // Pulled out and plugged in again: offered again; pulled out while offered: taken back.
        fake.sticks.withLock { $0 = [] }
        updater.refresh()
        fake.sticks.withLock { $0 = [stick] }
        updater.refresh()
        #expect(rig.run(until: { dialog(rig)?.isOffer == true }))
        fake.sticks.withLock { $0 = [] }
        updater.refresh()
        #expect(rig.state.dialog == nil)
    }

    @Test func anOfferWaitsWhileThePrompterPlays() throws {
        let rig = try ConsoleHarness()
        let offer = RigUpdateOffer(stick: "RIGSTICK", path: "/run/media/rig/RIGSTICK/rig_2.0_amd64.deb", version: "2.0",
                                   installed: "1.0")
        rig.key("Space")
        #expect(rig.app.stage.controller.engine.state(at: rig.app.loop.clock()) == .playing)
        rig.app.stage.handle(.rigUpdate(.offer(offer)))
        #expect(rig.state.dialog == nil, "no dialog over the talent's reading")
        rig.key("Space")
        rig.app.stage.handle(.rigUpdate(.offer(offer)))
        #expect(rig.state.dialog == .rigUpdate(.offer(offer)))
    }

    @Test func anInstallSystemdRefusesIsSaidInWords() throws {
        let rig = try ConsoleHarness()
        let fake = FakeSystem()
        fake.sticks.withLock { $0 = [try! Self.stick(["rig_1.5_amd64.deb"])] }
        fake.refusal.withLock { $0 = "systemd did not start rig-update@x.service: Access denied" }
        let updater = RigUpdater(stage: rig.app.stage, stateDirectory: rig.root.path, loop: rig.app.loop,
                                 system: fake.system)
        updater.refresh()
        #expect(rig.run(until: { dialog(rig)?.isOffer == true }))
        rig.settle()
        rig.key("Tab")
        rig.key("Enter")
        #expect(rig.run(until: {
            if case .failed? = dialog(rig) { true } else { false }
        }))
        guard case let .failed(version, reason)? = dialog(rig) else { return }
        #expect(version == "1.5")
        #expect(reason == "The install did not start: systemd did not start rig-update@x.service: Access denied.")
        rig.key("Enter")
        updater.refresh()
        #expect(rig.state.dialog == nil)
    }
}
