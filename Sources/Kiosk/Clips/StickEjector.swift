import CLinux
import Foundation
import Stage

/// Eject of a USB stick the rig mounted (the Clips screen's Eject, `rig ctl media
/// eject NAME`): its filesystem synced, then systemd asked to stop its mount unit (the
/// kiosk unmounts nothing itself: polkit lets the user rig stop those units only), and
/// "safe to remove" once the mount has gone from the kiosk's mount table. The work runs
/// on a thread of its own; its end comes back on the loop.
final class StickEjector {
    /// The steps, the system's on the rig and stood in for in tests. Each returns why it
    /// failed, or nil.
    struct Steps: Sendable {
        var sync: @Sendable (_ mountPoint: String) -> String?
        var stop: @Sendable (_ unit: String) -> String?
        var waitGone: @Sendable (_ mountPoint: String, _ seconds: Double) -> Bool
    }

    static let system = Steps(sync: syncFilesystem, stop: { unit in
        do throws(SystemBus.Failure) {
            try SystemBus().stopUnit(unit)
            return nil
        } catch {
            return error.description
        }
    }, waitGone: MountTable.waitUntilGone)

    /// How long the unmount may take once systemd has its job (a stick still writing back).
    static let unmountSeconds = 20.0

    /// The last eject, for the console and `status`.
    private(set) var last: StickEjectProgress?
    /// An eject ended (on the loop).
    var changed: () -> Void = {}
    private let steps: Steps
    private let post: @Sendable (@escaping @Sendable () -> Void) -> Void

    init(steps: Steps = system, post: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.steps = steps
        self.post = post
    }

    /// The stick `name` means: its label, its share-sheet title or its mount point.
    static func stick(named name: String, among destinations: [ExportDestination]) -> Result<ExportDestination, ClipRefusal> {
        let sticks = destinations.filter { $0.kind == .removable }
        guard let stick = sticks.first(where: { $0.label == name || $0.name == name || $0.path == name }) else {
            let mounted = sticks.isEmpty ? "no stick is mounted" : "mounted: " + sticks.map(\.label).joined(separator: ", ")
            return .failure(ClipRefusal("no USB stick \"\(name)\" is mounted (\(mounted))"))
        }
        guard stick.ejectable else {
            return .failure(ClipRefusal("\(stick.path) was not mounted by the rig; unmount it the way it was mounted"))
        }
        return .success(stick)
    }

    /// Starts ejecting `name`; refused while an export is copying onto it
    /// (`copying`: the files being written) or it is already being ejected.
    func eject(_ name: String, among destinations: [ExportDestination],
               copying: [String]) -> Result<StickEjectProgress, ClipRefusal> {
        let stick: ExportDestination
        switch Self.stick(named: name, among: destinations) {
        case let .success(found): stick = found
        case let .failure(refusal): return .failure(refusal)
        }
        if last?.name == stick.label, last?.state == .ejecting {
            return .failure(ClipRefusal("\(stick.label) is already being ejected"))
        }
        if copying.contains(where: { $0.hasPrefix(stick.path + "/") }) {
            return .failure(ClipRefusal("an export to \(stick.label) is still copying; eject it when the export has ended"))
        }
        let started = StickEjectProgress(name: stick.label, state: .ejecting)
        last = started
        KioskLog.notice("ejecting USB stick \(stick.label) (\(stick.path))")
        let steps = steps
        let post = post
        let box = LoopBound(self)
        let path = stick.path
        let thread = Thread {
            var outcome = StickEjectProgress(name: started.name, state: .safe)
            if let failure = steps.sync(path) ?? steps.stop(MountUnitName.of(path)) {
                outcome.state = .failed
                outcome.message = failure
            } else if !steps.waitGone(path, Self.unmountSeconds) {
                outcome.state = .failed
                outcome.message = "\(path) is still mounted \(Int(Self.unmountSeconds)) s after systemd was asked to unmount it"
            }
            let ended = outcome
            post { box.value?.finished(ended) }
        }
        thread.name = "rig-stick-eject"
        thread.start()
        return .success(started)
    }

    /// A stick ejected and then plugged back in: its "safe to remove" no longer holds.
    func forgetIfMounted(_ destinations: [ExportDestination]) {
        guard let last, last.state != .ejecting, destinations.contains(where: { $0.label == last.name }) else { return }
        self.last = nil
    }

    private func finished(_ outcome: StickEjectProgress) {
        last = outcome
        if outcome.state == .safe {
            KioskLog.notice("USB stick \(outcome.name) ejected: safe to remove")
        } else {
            KioskLog.warning("USB stick \(outcome.name) not ejected: \(outcome.message ?? "")")
        }
        changed()
    }

    /// syncfs on the stick: its data written back before systemd unmounts it.
    private static func syncFilesystem(_ mountPoint: String) -> String? {
        let fd = open(mountPoint, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return "\(mountPoint): \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        guard rig_syncfs(fd) == 0 else { return "writing back \(mountPoint) failed: \(String(cString: strerror(errno)))" }
        return nil
    }
}
