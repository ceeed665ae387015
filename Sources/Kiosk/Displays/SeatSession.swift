import CSeat
import Glibc
import Stage

/// A libseat session: how an unprivileged kiosk (a dedicated user with logind, or in
/// the `video` group with seatd) opens the DRM card and input nodes, and learns of VT
/// switches. Owns the libseat handle and the listener it points to.
///
/// The seat starts disabled; `waitUntilEnabled` dispatches until libseat says it may
/// be used. After that, every disable (a VT switch away) must be acknowledged, which
/// this type does after telling its observers to stop touching their devices.
final class SeatSession {
    private var seat: OpaquePointer?
    private let listener: UnsafeMutablePointer<libseat_seat_listener>
    private(set) var enabled = false
    private var devices: [Int32: Int32] = [:]  // fd -> libseat device id

    /// Called on the event loop when the seat goes away (VT switch) and comes back.
    var onDisable: [() -> Void] = []
    var onEnable: [() -> Void] = []

    init() throws(DisplaysError) {
        listener = .allocate(capacity: 1)
        listener.initialize(to: libseat_seat_listener(
            enable_seat: { _, userData in
                guard let userData else { return }
                Unmanaged<SeatSession>.fromOpaque(userData).takeUnretainedValue().seatEnabled()
            },
            disable_seat: { _, userData in
                guard let userData else { return }
                Unmanaged<SeatSession>.fromOpaque(userData).takeUnretainedValue().seatDisabled()
            }))
        libseat_set_log_level(LIBSEAT_LOG_LEVEL_ERROR)
        seat = libseat_open_seat(listener, Unmanaged.passUnretained(self).toOpaque())
        if seat == nil {
            listener.deallocate()
            throw .seat("no seat to open (is seatd or logind running, and is the user in the video group?): "
                        + String(cString: strerror(errno)))
        }
    }

    deinit {
        if let seat {
            for (fd, id) in devices {
                libseat_close_device(seat, id)
                close(fd)
            }
            libseat_close_seat(seat)
        }
        listener.deinitialize(count: 1)
        listener.deallocate()
    }

    /// The descriptor to watch on the event loop; call `dispatch` when it is readable.
    var fd: Int32 { seat.map { libseat_get_fd($0) } ?? -1 }

    var name: String { seat.flatMap { libseat_seat_name($0) }.map { String(cString: $0) } ?? "?" }

    func dispatch() {
        guard let seat else { return }
        while libseat_dispatch(seat, 0) > 0 {}
    }

    /// Blocks (briefly, at start-up only) until the seat is ours.
    func waitUntilEnabled(timeout: Double) throws(DisplaysError) {
        guard let seat else { return }
        let deadline = MonotonicTime.now() + timeout
        while !enabled {
            let left = Int32(max(0, (deadline - MonotonicTime.now()) * 1000))
            if left == 0 { throw .seat("seat \(name) was not enabled within \(Int(timeout)) s (another session active?)") }
            if libseat_dispatch(seat, left) < 0 { throw .seat("libseat_dispatch: \(String(cString: strerror(errno)))") }
        }
    }

    /// Opens a device node through the seat; give it back with `closeDevice`.
    func openDevice(_ path: String) throws(DisplaysError) -> Int32 {
        guard let seat else { throw .seat("closed") }
        var fd: Int32 = -1
        let id = libseat_open_device(seat, path, &fd)
        if id < 0 || fd < 0 { throw .openFailed(path: path, reason: "through the seat: " + String(cString: strerror(errno))) }
        devices[fd] = id
        return fd
    }

    func closeDevice(fd: Int32) {
        guard let seat, let id = devices.removeValue(forKey: fd) else { return }
        libseat_close_device(seat, id)
        close(fd)
    }

    private func seatEnabled() {
        enabled = true
        for observer in onEnable { observer() }
    }

    private func seatDisabled() {
        enabled = false
        for observer in onDisable { observer() }
        if let seat { libseat_disable_seat(seat) }
    }
}
