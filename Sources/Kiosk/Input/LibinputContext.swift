import CInput
import CUdev
import Foundation
import Stage

/// Opens input device nodes for libinput. The kiosk shares one seat between DRM and
/// input: through libseat (a user service) the seat owner opens nodes for us and can
/// revoke them on a VT switch; as root the nodes are opened directly.
protocol InputDeviceOpener: AnyObject {
    /// A file descriptor for `path`, or a negative errno.
    func openDevice(path: String, flags: Int32) -> Int32
    func closeDevice(fd: Int32)
}

/// Opens device nodes with open(2): the path for a kiosk running as root (or a user in
/// the `input` group) and for `rig devices` / `rig input-probe`.
final class DirectInputDeviceOpener: InputDeviceOpener {
    init() {}

    func openDevice(path: String, flags: Int32) -> Int32 {
        let fd = open(path, flags | O_CLOEXEC)
        return fd >= 0 ? fd : -errno
    }

    func closeDevice(fd: Int32) { close(fd) }
}

enum InputError: Error, CustomStringConvertible {
    case udevUnavailable
    case contextCreation
    case seatAssignment(String)

    var description: String {
        switch self {
        case .udevUnavailable: "input: cannot reach udev (udev_new failed)"
        case .contextCreation: "input: libinput could not create a context"
        case let .seatAssignment(seat):
            "input: libinput could not take seat \"\(seat)\" (is /run/udev present, i.e. is systemd-udevd running?)"
        }
    }
}

/// The owner of one `struct libinput` on udev: the only place that calls libinput's
/// create and unref. Events are read with `dispatch()` and `nextEvent()` on the loop thread.
final class LibinputContext {
    let handle: OpaquePointer
    private let opener: InputDeviceOpener
    /// libinput keeps the pointer to its interface table, so it lives as long as the context.
    private let interface: UnsafeMutablePointer<libinput_interface>
    /// Where libinput's own messages go (the journal through stderr by default).
    var log: (String) -> Void = { FileHandle.standardError.write(Data("input: \($0)".utf8)) }

    init(opener: InputDeviceOpener, seat: String = "seat0") throws {
        self.opener = opener
        interface = .allocate(capacity: 1)
        interface.initialize(to: libinput_interface(
            open_restricted: { path, flags, userData in
                guard let path, let userData else { return -EINVAL }
                let owner = Unmanaged<LibinputContext>.fromOpaque(userData).takeUnretainedValue()
                return owner.opener.openDevice(path: String(cString: path), flags: flags)
            },
            close_restricted: { fd, userData in
                guard let userData else { return }
                Unmanaged<LibinputContext>.fromOpaque(userData).takeUnretainedValue().opener.closeDevice(fd: fd)
            }
        ))
        guard let udev = udev_new() else {
            interface.deallocate()
            throw InputError.udevUnavailable
        }
        // libinput takes its own reference to udev; ours ends here.
        defer { udev_unref(udev) }
        // The user data is set after init so `self` is not used before all fields exist.
        guard let context = libinput_udev_create_context(interface, nil, udev) else {
            interface.deallocate()
            throw InputError.contextCreation
        }
        handle = context
        libinput_set_user_data(handle, Unmanaged.passUnretained(self).toOpaque())
        libinput_log_set_priority(handle, LIBINPUT_LOG_PRIORITY_ERROR)
        libinput_log_set_handler(handle) { context, priority, format, args in
            guard let context, let format, let args, let userData = libinput_get_user_data(context) else { return }
            var buffer = [CChar](repeating: 0, count: 512)
            _ = rig_format_va(&buffer, buffer.count, format, args)
            let owner = Unmanaged<LibinputContext>.fromOpaque(userData).takeUnretainedValue()
            let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            owner.log(String(decoding: text, as: UTF8.self))
        }
        if libinput_udev_assign_seat(handle, seat) != 0 {
            throw InputError.seatAssignment(seat)
        }
    }

    deinit {
        libinput_unref(handle)
        interface.deinitialize(count: 1)
        interface.deallocate()
    }

    /// The descriptor to poll; readable when libinput has something to dispatch.
    var fd: Int32 { libinput_get_fd(handle) }

    /// Reads the kernel's events into libinput's queue.
    func dispatch() { _ = libinput_dispatch(handle) }

    /// The next queued event; the caller owns it (see `LibinputEvent`).
    func nextEvent() -> LibinputEvent? {
        libinput_get_event(handle).map(LibinputEvent.init)
    }

    /// Releases every device (a VT switch away); `resume()` reopens them.
    func suspend() { libinput_suspend(handle) }

    func resume() { _ = libinput_resume(handle) }
}

/// One libinput event; its deinit is the only caller of `libinput_event_destroy`.
final class LibinputEvent {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { libinput_event_destroy(handle) }

    var type: libinput_event_type { libinput_event_get_type(handle) }
    var device: OpaquePointer? { libinput_event_get_device(handle) }

    /// When the kernel stamped the key, touch or pointer event (CLOCK_MONOTONIC, µs);
    /// nil for the rest (a touch frame, a device's arrival or removal).
    var timeUsec: UInt64? {
        switch type {
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            libinput_event_get_keyboard_event(handle).map(libinput_event_keyboard_get_time_usec)
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION, LIBINPUT_EVENT_TOUCH_UP,
             LIBINPUT_EVENT_TOUCH_CANCEL:
            libinput_event_get_touch_event(handle).map(libinput_event_touch_get_time_usec)
        case LIBINPUT_EVENT_POINTER_MOTION, LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE, LIBINPUT_EVENT_POINTER_BUTTON,
             LIBINPUT_EVENT_POINTER_AXIS, LIBINPUT_EVENT_POINTER_SCROLL_WHEEL, LIBINPUT_EVENT_POINTER_SCROLL_FINGER,
             LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
            libinput_event_get_pointer_event(handle).map(libinput_event_pointer_get_time_usec)
        default:
            nil
        }
    }
}
