import Glibc

/// How the rig's blocking devices live on their `DeviceThread` (camera, sound out,
/// sound in), the one way for all three: opened and run until they fail; a failure
/// unlike the one before is reported (the banner, the journal); then the thread waits
/// for udev to announce a device of its kind, a stop, or the retry interval, and opens
/// it again. Without udev (a container) it retries on the interval alone.
struct DeviceReopenLoop<Failure: Error & Equatable> {
    let thread: DeviceThread
    /// udevd's events of the device's subsystem (nil: none to be had).
    let monitor: UdevMonitor?
    let retryInterval: Double
    /// A udev event that may be the device coming back.
    let announces: (UdevMonitor.Event) -> Bool

    /// Runs until the thread is asked to stop. `device` opens and runs the device and
    /// returns on stop or throws when it fails; `failed` hears each new failure,
    /// `waiting` each wake-up while the device is away (work asked for meanwhile is
    /// refused there), `reopening` a udev announcement it opens again for.
    func run(device: () throws(Failure) -> Void, failed: (Failure) -> Void, waiting: (Failure) -> Void = { _ in },
             reopening: () -> Void) {
        var lastFailure: Failure?
        while !thread.stopping {
            do throws(Failure) {
                try device()
                lastFailure = nil
            } catch {
                if error != lastFailure {
                    failed(error)
                    lastFailure = error
                }
                if waitForDevice(while: { waiting(error) }) { reopening() }
            }
        }
    }

    /// Waits for udev to announce a device, a stop, or the retry interval; true when
    /// udev announced one.
    private func waitForDevice(while wait: () -> Void) -> Bool {
        let deadline = MonotonicTime.now() + retryInterval
        while !thread.stopping {
            wait()
            let remaining = deadline - MonotonicTime.now()
            if remaining <= 0 { return false }
            var fds = [pollfd(fd: thread.wakeFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: monitor?.fd ?? -1, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 2, Int32((remaining * 1000).rounded(.up)))
            if let monitor, fds[1].revents != 0, monitor.drain(matching: announces) { return true }
        }
        return false
    }
}
