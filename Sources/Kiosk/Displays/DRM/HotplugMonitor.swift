import CUdev
import Glibc

/// A udev monitor on the drm subsystem. Owns the udev context and monitor.
/// It listens to udevd's re-broadcast when udevd runs (as weston does), and to the
/// kernel's own uevents otherwise (a bare system, the virtual rig's initramfs).
final class HotplugMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    var fd: Int32 { udev_monitor_get_fd(monitor) }

    init() throws(DisplaysError) {
        guard let udev = udev_new() else { throw .kernel(call: "udev_new", reason: "failed") }
        let source = access("/run/udev/control", F_OK) == 0 ? "udev" : "kernel"
        guard let monitor = udev_monitor_new_from_netlink(udev, source) else {
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

    /// Drains the pending events; true when one of them was a DRM hotplug (HOTPLUG=1).
    func receiveHotplug() -> Bool {
        var hotplug = false
        while let device = udev_monitor_receive_device(monitor) {
            if let value = udev_device_get_property_value(device, "HOTPLUG"), String(cString: value) == "1" {
                hotplug = true
            }
            udev_device_unref(device)
        }
        return hotplug
    }
}
