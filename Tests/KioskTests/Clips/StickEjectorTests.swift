import Foundation
import Stage
import Testing
@testable import Kiosk

/// Eject: which stick a name means, the refusals, and the steps in order (sync, the
/// mount unit stopped, the mount gone), with the system's steps stood in for.
struct StickEjectorTests {
    static let sticks = RemovableMounts.parse("""
        /dev/sdb1 /run/media/rig/RIGSTICK vfat rw,nosuid,nodev,noexec 0 0
        /dev/sdc1 /media/pat/Holiday exfat rw,nosuid,nodev 0 0
        /dev/sdd1 /run/media/rig/My-Clips ext4 ro,nosuid,nodev,noexec 0 0
        """)

    /// The loop's mailbox, drained by the test on its own thread.
    final class Mailbox: @unchecked Sendable {
        private let lock = NSLock()
        private var work: [@Sendable () -> Void] = []
        func post(_ item: @escaping @Sendable () -> Void) { lock.withLock { work.append(item) } }
        func drain(until done: () -> Bool) {
            let deadline = Date().addingTimeInterval(10)
            while !done(), Date() < deadline {
                let items = lock.withLock { let items = work; work = []; return items }
                items.forEach { $0() }
                if items.isEmpty { usleep(1000) }
            }
        }
    }

    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ call: String) { lock.withLock { list.append(call) } }
        var all: [String] { lock.withLock { list } }
    }

    @Test func theMountsSayWhichAreTheRigsAndWhichAreReadOnly() {
        #expect(Self.sticks.map(\.label) == ["RIGSTICK", "Holiday", "My-Clips"])
        #expect(Self.sticks.map(\.ejectable) == [true, false, true])
        #expect(Self.sticks.map(\.readOnly) == [false, false, true])
    }

    @Test func aStickIsNamedByItsLabelTitleOrPath() {
        for name in ["RIGSTICK", "USB: RIGSTICK", "/run/media/rig/RIGSTICK"] {
            #expect((try? StickEjector.stick(named: name, among: Self.sticks).get())?.path == "/run/media/rig/RIGSTICK")
        }
        guard case let .failure(unknown) = StickEjector.stick(named: "NOPE", among: Self.sticks) else {
            Issue.record("an unknown stick was found"); return
        }
        #expect(unknown.description == "no USB stick \"NOPE\" is mounted (mounted: RIGSTICK, Holiday, My-Clips)")
        guard case let .failure(none) = StickEjector.stick(named: "X", among: []) else { return }
        #expect(none.description == "no USB stick \"X\" is mounted (no stick is mounted)")
        guard case let .failure(foreign) = StickEjector.stick(named: "Holiday", among: Self.sticks) else {
            Issue.record("a stick mounted by someone else was ejectable"); return
        }
        #expect(foreign.description == "/media/pat/Holiday was not mounted by the rig; unmount it the way it was mounted")
    }

    @Test func ejectSyncsStopsTheMountUnitAndWaitsForTheMountToGo() {
        let calls = Calls()
        let mailbox = Mailbox()
        let ejector = StickEjector(steps: .init(sync: { calls.add("sync \($0)"); return nil },
                                                stop: { calls.add("stop \($0)"); return nil },
                                                waitGone: { path, _ in calls.add("wait \(path)"); return true }),
                                   post: mailbox.post)
        var changes = 0
        ejector.changed = { changes += 1 }
        let started = ejector.eject("My-Clips", among: Self.sticks, copying: [])
        #expect((try? started.get()) == StickEjectProgress(name: "My-Clips", state: .ejecting))
        guard case let .failure(twice) = ejector.eject("My-Clips", among: Self.sticks, copying: []) else {
            Issue.record("a second eject of the same stick was started"); return
        }
        #expect(twice.description == "My-Clips is already being ejected")
        mailbox.drain { changes > 0 }
        #expect(calls.all == ["sync /run/media/rig/My-Clips", "stop run-media-rig-My\\x2dClips.mount",
                              "wait /run/media/rig/My-Clips"])
        #expect(ejector.last == StickEjectProgress(name: "My-Clips", state: .safe))
        #expect(ejector.last?.line == "My-Clips is ejected: safe to remove")
        // Plugged in again: "safe to remove" is forgotten.
        ejector.forgetIfMounted(Self.sticks)
        #expect(ejector.last == nil)
    }

    @Test func aRefusedStopOrAMountThatStaysIsAFailureThatSaysSo() {
        let mailbox = Mailbox()
        let refused = StickEjector(steps: .init(sync: { _ in nil }, stop: { _ in "Access denied" },
                                                waitGone: { _, _ in true }), post: mailbox.post)
        _ = refused.eject("RIGSTICK", among: Self.sticks, copying: [])
        mailbox.drain { refused.last?.state != .ejecting }
        #expect(refused.last == StickEjectProgress(name: "RIGSTICK", state: .failed, message: "Access denied"))
        #expect(refused.last?.line == "RIGSTICK was not ejected: Access denied. Do not pull it out yet.")

        let stuck = StickEjector(steps: .init(sync: { _ in nil }, stop: { _ in nil }, waitGone: { _, _ in false }),
                                 post: mailbox.post)
        _ = stuck.eject("RIGSTICK", among: Self.sticks, copying: [])
        mailbox.drain { stuck.last?.state != .ejecting }
        #expect(stuck.last?.state == .failed)
        #expect(stuck.last?.message?.hasPrefix("/run/media/rig/RIGSTICK is still mounted") == true)
    }

    @Test func aStickAnExportIsCopyingOntoIsNotEjected() {
        let ejector = StickEjector(steps: .init(sync: { _ in nil }, stop: { _ in nil }, waitGone: { _, _ in true }),
                                   post: { _ in })
        guard case let .failure(refusal) = ejector.eject("RIGSTICK", among: Self.sticks,
                                                         copying: ["/run/media/rig/RIGSTICK/prompter-1.mp4"]) else {
            Issue.record("a stick being written to was ejected"); return
        }
        #expect(refusal.description == "an export to RIGSTICK is still copying; eject it when the export has ended")
        #expect(ejector.last == nil)
    }

    @Test func mountUnitNamesAreSystemdsEscapes() {
        // As `systemd-escape --path --suffix=mount` prints them.
        #expect(MountUnitName.of("/run/media/rig/My-Stick") == "run-media-rig-My\\x2dStick.mount")
        #expect(MountUnitName.of("/run/media/rig/My Clips") == "run-media-rig-My\\x20Clips.mount")
        #expect(MountUnitName.of("/run/media/rig/.x") == "run-media-rig-.x.mount")
        #expect(MountUnitName.of("/run/media/rig/a.b_c:d/") == "run-media-rig-a.b_c:d.mount")
        #expect(MountUnitName.of("/run/media/rig/Été") == "run-media-rig-\\xc3\\x89t\\xc3\\xa9.mount")
    }

    @Test func theMountTableIsReadWithItsEscapes() {
        let mountinfo = """
            22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
            95 30 8:17 / /run/media/rig/My\\040Clips rw,nosuid,nodev,noexec shared:50 - vfat /dev/sdb1 rw
            """
        #expect(MountTable.contains("/run/media/rig/My Clips", in: mountinfo))
        #expect(!MountTable.contains("/run/media/rig/My", in: mountinfo))
        // This process's own table: / is mounted, a made-up folder is not (and the wait says so at once).
        #expect(!MountTable.waitUntilGone("/", seconds: 0.05))
        #expect(MountTable.waitUntilGone("/nonexistent/rig-stick", seconds: 5))
    }

    @Test func mediaRequestsParse() throws {
        var arguments = Arguments(["media", "eject", "RIGSTICK"])
        #expect(try CtlCommand.parseRequest(&arguments, search: nil) == .media(action: "eject", name: "RIGSTICK"))
        var list = Arguments(["media"])
        #expect(try CtlCommand.parseRequest(&list, search: nil) == .media(action: "list", name: nil))
        var bare = Arguments(["media", "eject"])
        #expect(throws: CLIError.self) { try CtlCommand.parseRequest(&bare, search: nil) }
        for request in [ControlRequest.media(action: "eject", name: "A B"), .media(action: "list", name: nil)] {
            #expect(try ControlRequest.parse(Data(request.json.serialized.utf8)).get() == request)
        }
        #expect((try? ControlRequest.parse(Data(#"{"cmd":"media","action":"eject"}"#.utf8)).get()) == nil)
        #expect((try? ControlRequest.parse(Data(#"{"cmd":"media","action":"format","name":"A"}"#.utf8)).get()) == nil)
    }
}
