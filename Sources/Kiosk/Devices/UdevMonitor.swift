import CUdev
import Glibc

/// A udev monitor on one subsystem: the one owner of a udev context and monitor (deinit
/// releases both), for the camera's and the displays' hotplug. Events are looked at
/// while they are drained and not kept.
final class UdevMonitor {
    /// Whose events to read. `kernel`: the kernel's own uevents, with no udevd and no
    /// rule processing in between. `udev`: udevd's processed events, sent once its rules
    /// ran (device links made, permissions set).
    enum Source: String {
        case kernel, udev
    }

    /// One event while it is drained.
    struct Event {
        fileprivate let device: OpaquePointer

        func property(_ name: String) -> String? {
            udev_device_get_property_value(device, name).map { String(cString: $0) }
        }

        /// "add", "remove", "change"…
        var action: String? { udev_device_get_action(device).map { String(cString: $0) } }

        /// The kernel's name for it ("event7", "card0").
        var sysname: String? { udev_device_get_sysname(device).map { String(cString: $0) } }
    }

    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    let fd: Int32

    init(subsystem: String, source: Source) throws(SystemError) {
        guard let udev = udev_new() else { throw .call("udev_new", errno) }
        guard let monitor = udev_monitor_new_from_netlink(udev, source.rawValue) else {
            let code = errno
            udev_unref(udev)
            throw .call("udev_monitor_new_from_netlink", code)
        }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, subsystem, nil)
        if udev_monitor_enable_receiving(monitor) != 0 {
            let code = errno
            udev_monitor_unref(monitor)
            udev_unref(udev)
            throw .call("udev_monitor_enable_receiving", code)
        }
        self.udev = udev
        self.monitor = monitor
        fd = udev_monitor_get_fd(monitor)
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Drains the pending events; true when any of them is `matching`.
    func drain(matching: (Event) -> Bool) -> Bool {
        var matched = false
        while let device = udev_monitor_receive_device(monitor) {
            if matching(Event(device: device)) { matched = true }
            udev_device_unref(device)
        }
        return matched
    }
}
