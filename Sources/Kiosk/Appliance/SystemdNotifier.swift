import CSystemd
import Foundation
import Stage

/// Talks to systemd for `Type=notify`: READY=1 once both displays have been tried,
/// WATCHDOG=1 from the event loop (so a hung loop stops petting it and systemd
/// restarts the kiosk), STATUS= on state changes. Outside systemd every call is a no-op.
final class SystemdNotifier {
    /// Half the watchdog period, or nil when the unit has no watchdog.
    let watchdogInterval: Double?
    private var lastStatus = ""

    init() {
        var microseconds: UInt64 = 0
        watchdogInterval = sd_watchdog_enabled(0, &microseconds) > 0 ? Double(microseconds) / 2e6 : nil
    }

    func ready() { sd_notify(0, "READY=1") }

    func watchdog() { sd_notify(0, "WATCHDOG=1") }

    func stopping() { sd_notify(0, "STOPPING=1") }

    /// Sent only when it changes: one line per state change, never one per frame.
    func status(_ text: String) {
        guard text != lastStatus else { return }
        lastStatus = text
        sd_notify(0, "STATUS=\(text)")
    }

    /// Pets the watchdog from `loop` for as long as the loop runs.
    func startWatchdog(on loop: EventLoop) {
        guard let interval = watchdogInterval else { return }
        petWatchdog(on: loop, every: interval)
    }

    /// A method rather than a nested function, so the timer really holds the notifier
    /// weakly (a nested function would capture `self` strongly for its `[weak self]`).
    private func petWatchdog(on loop: EventLoop, every interval: Double) {
        loop.addTimer(at: loop.clock() + interval) { [weak self] in
            self?.watchdog()
            self?.petWatchdog(on: loop, every: interval)
        }
    }
}
