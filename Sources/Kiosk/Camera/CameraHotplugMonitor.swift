import CUdev
import Foundation
import Stage

/// udev events for video4linux devices, read by the capture thread while the camera
/// is away. It listens to udev's processed events (not raw kernel ones): by then the
/// /dev/v4l/by-id link exists and permissions are set, so the reopen succeeds.
/// Owns the udev context and monitor; deinit releases both.
final class CameraHotplugMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    let fd: Int32

    /// nil when udev is not available (no netlink socket, e.g. in a container);
    /// the capture thread then retries on a timer only.
    init?() {
        guard let udev = udev_new() else { return nil }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            udev_unref(udev)
            return nil
        }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "video4linux", nil)
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

    /// Drains pending events; true if a video4linux device was added (or changed).
    func deviceArrived() -> Bool {
        var arrived = false
        while let device = udev_monitor_receive_device(monitor) {
            if let action = udev_device_get_action(device).map({ String(cString: $0) }), action == "add" || action == "change" {
                arrived = true
            }
            udev_device_unref(device)
        }
        return arrived
    }
}
