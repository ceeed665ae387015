import CSeat
import Foundation

enum SeatError: Error, CustomStringConvertible {
    case unavailable(String)
    case notEnabled(Double)

    var description: String {
        switch self {
        case let .unavailable(reason):
            "seat: cannot open a seat through libseat (\(reason)); run seatd or logind, or run as root"
        case let .notEnabled(seconds):
            "seat: the seat was not handed to us within \(seconds) s (another session on this VT?)"
        }
    }
}

/// The kiosk's seat through libseat (seatd, logind, or the built-in backend as root):
/// it opens DRM and input nodes for an unprivileged kiosk and takes them away on a VT
/// switch. One per process; DRM and `InputDevices` both open through it. The owner of
/// `struct libseat`: nothing else calls libseat_open_seat or libseat_close_seat.
final class SeatSession: InputDeviceOpener {
    /// Seat callbacks arrive during dispatch with a user-data pointer fixed at open time,
    /// before `self` exists, so they go to this box the session owns.
    private final class Events {
        var enabled = false
        var onEnable: () -> Void = {}
        var onDisable: () -> Void = {}
    }

    private let handle: OpaquePointer
    private let events = Events()
    private let listener: UnsafeMutablePointer<libseat_seat_listener>
    /// libseat names devices by its own id; close needs it back from the fd.
    private var deviceIDs: [Int32: Int32] = [:]

    /// Opens the seat and waits (up to `timeout` seconds) until it is enabled.
    init(timeout: Double = 5) throws {
        listener = .allocate(capacity: 1)
        listener.initialize(to: libseat_seat_listener(
            enable_seat: { _, userData in
                guard let userData else { return }
                let events = Unmanaged<Events>.fromOpaque(userData).takeUnretainedValue()
                events.enabled = true
                events.onEnable()
            },
            disable_seat: { seat, userData in
                guard let userData else { return }
                let events = Unmanaged<Events>.fromOpaque(userData).takeUnretainedValue()
                events.enabled = false
                // Owners stop using their devices first (libinput suspends, DRM drops
                // master); then the seat may be taken.
                events.onDisable()
                libseat_disable_seat(seat)
            }
        ))
        guard let seat = libseat_open_seat(listener, Unmanaged.passUnretained(events).toOpaque()) else {
            let reason = String(cString: strerror(errno))
            listener.deinitialize(count: 1)
            listener.deallocate()
            throw SeatError.unavailable(reason)
        }
        handle = seat
        let deadline = MonotonicTime.now() + timeout
        while !events.enabled {
            let left = deadline - MonotonicTime.now()
            if left <= 0 { throw SeatError.notEnabled(timeout) }
            _ = libseat_dispatch(handle, Int32(min(left, 1) * 1000))
        }
    }

    deinit {
        for (fd, id) in deviceIDs {
            _ = libseat_close_device(handle, id)
            close(fd)
        }
        libseat_close_seat(handle)
        listener.deinitialize(count: 1)
        listener.deallocate()
    }

    /// The seat's name ("seat0"), for libinput's seat assignment.
    var name: String { String(cString: libseat_seat_name(handle)) }

    var isEnabled: Bool { events.enabled }

    /// Called on the loop when the seat comes back (re-open or resume devices) and
    /// when it is about to be taken away (suspend them).
    func onEnable(_ action: @escaping () -> Void) { events.onEnable = action }
    func onDisable(_ action: @escaping () -> Void) { events.onDisable = action }

    /// The descriptor to poll on the event loop; call `dispatch()` when readable.
    var fd: Int32 { libseat_get_fd(handle) }

    func dispatch() { _ = libseat_dispatch(handle, 0) }

    func openDevice(path: String, flags: Int32) -> Int32 {
        var fd: Int32 = -1
        let id = libseat_open_device(handle, path, &fd)
        guard id >= 0, fd >= 0 else { return -(errno == 0 ? EIO : errno) }
        // libseat ignores the flags; libinput needs a non-blocking descriptor.
        if flags & O_NONBLOCK != 0 {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        deviceIDs[fd] = id
        return fd
    }

    func closeDevice(fd: Int32) {
        // libseat forgets the device but leaves the descriptor to us (as wlroots does).
        if let id = deviceIDs.removeValue(forKey: fd) { _ = libseat_close_device(handle, id) }
        close(fd)
    }
}
