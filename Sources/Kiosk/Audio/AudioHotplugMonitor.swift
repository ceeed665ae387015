import CUdev

/// udev events for sound cards, read by a sound thread: while its device is away (a
/// card arriving means try again now), and while idle (a card leaving means look at
/// the open device now rather than at the next check). Owns the udev context and
/// monitor; deinit releases both.
final class AudioHotplugMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    let fd: Int32

    /// nil when udev is not available; the thread then retries on a timer only.
    init?() {
        guard let udev = udev_new() else { return nil }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            udev_unref(udev)
            return nil
        }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "sound", nil)
        guard udev_monitor_enable_receiving(monitor) == 0 else {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            return nil
        }
        self.udev = udev
        self.monitor = monitor
        fd = udev_monitor_get_fd(monitor)
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    struct Changes { var added = false; var removed = false }

    /// Drains pending events: whether a sound device came or went.
    func drain() -> Changes {
        var changes = Changes()
        while let device = udev_monitor_receive_device(monitor) {
            switch udev_device_get_action(device).map({ String(cString: $0) }) {
            case "add", "change": changes.added = true
            case "remove": changes.removed = true
            default: break
            }
            udev_device_unref(device)
        }
        return changes
    }
}
