import CUdev
import Glibc
import Stage

/// A uevent monitor on the drm subsystem. Owns the udev context and monitor.
/// It reads the kernel's own uevents rather than udevd's re-broadcast: nothing from
/// udev's database is needed to re-probe a card that is already open, it works with
/// no udevd, and udevd's rule processing adds most of a second under load (0.66 s
/// measured in the virtual rig), which would eat the one second a replugged display
/// has to come back in.
final class HotplugMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    var fd: Int32 { udev_monitor_get_fd(monitor) }

    init() throws(DisplaysError) {
        guard let udev = udev_new() else { throw .kernel(call: "udev_new", reason: "failed") }
        guard let monitor = udev_monitor_new_from_netlink(udev, "kernel") else {
            udev_unref(udev)
            throw .kernel(call: "udev_monitor_new_from_netlink", reason: String(cString: strerror(errno)))
        }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "drm", nil)
        if udev_monitor_enable_receiving(monitor) != 0 {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            throw .kernel(call: "udev_monitor_enable_receiving", reason: String(cString: strerror(errno)))
        }
        self.udev = udev
        self.monitor = monitor
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Drains the pending events; true when one of them says a card's connectors may
    /// have changed: HOTPLUG=1 (a hot-plug detect), or any other change uevent of a card
    /// (a synthetic `echo change > .../uevent`, which is how drivers with no HPD for a
    /// forced connector status, like virtio-gpu on 6.1, can be told to look again).
    func receiveHotplug() -> Bool {
        var hotplug = false
        while let device = udev_monitor_receive_device(monitor) {
            let property = { (name: String) in udev_device_get_property_value(device, name).map { String(cString: $0) } }
            if property("HOTPLUG") == "1" || (property("ACTION") == "change" && property("DEVTYPE") == "drm_minor") {
                hotplug = true
            }
            udev_device_unref(device)
        }
        return hotplug
    }
}
