import Foundation
import Stage

/// Opens input devices through the same libseat session as the displays, so an
/// unprivileged kiosk gets them from logind (or seatd) and loses them on a VT switch.
final class SeatInputDeviceOpener: InputDeviceOpener {
    private weak var seat: SeatSession?

    init(seat: SeatSession) { self.seat = seat }

    func openDevice(path: String, flags: Int32) -> Int32 {
        guard let seat else { return -ENODEV }
        do {
            let fd = try seat.openDevice(path)
            // libinput reads until EAGAIN; a seat may hand over a blocking descriptor.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            return fd
        } catch {
            return -EACCES
        }
    }

    func closeDevice(fd: Int32) { seat?.closeDevice(fd: fd) }
}
