import CEvdev
import Glibc
import Prompter
import Stage

/// One shuttle or gamepad opened through the seat and read with libevdev on the loop:
/// its speed control becomes `ControllerEvent.moved`, a shuttle's jog `.jogged`, and its
/// buttons key presses (bound in `[keys]` like keys).
final class EvdevController {
    enum Kind {
        case shuttle
        case gamepad(axis: UInt16)
    }

    let reading: ControllerReading
    let fd: Int32
    private let device: OpaquePointer
    private let kind: Kind
    private let map: SpeedMap
    private var shuttle = ShuttleDecoder()
    private(set) var current: ControllerReading

    /// Opens the node's descriptor with libevdev; nil (and the reason) when it is not the
    /// device it was taken for (a gamepad without the configured axis).
    init(fd: Int32, sysname: String, kind: Kind, config: RigConfig.Controllers) throws(ControllerOpenError) {
        var made: OpaquePointer?
        let status = libevdev_new_from_fd(fd, &made)
        guard status == 0, let made else { throw .libevdev(-status) }
        let name = libevdev_get_name(made).map { String(cString: $0) } ?? sysname
        // Event times on the rig's one clock, as libinput sets them for its devices.
        _ = libevdev_set_clock_id(made, CLOCK_MONOTONIC)
        device = made
        self.fd = fd
        self.kind = kind
        switch kind {
        case .shuttle:
            let shuttleConfig = config.shuttle
            map = SpeedMap(reverseEnd: -7, forwardEnd: 7, rest: 0, neutral: 0.5 / 7, forwardMax: 300,
                           reverseMax: shuttleConfig.reverseMax, steps: shuttleConfig.steps)
            reading = ControllerReading(id: sysname, name: name, kind: .shuttle, axis: "ring -7…7", map: map.summary)
        case let .gamepad(axis):
            guard libevdev_has_event_code(made, UInt32(EV_ABS), UInt32(axis)) == 1,
                  let info = libevdev_get_abs_info(made, UInt32(axis))?.pointee else {
                libevdev_free(made)
                throw .noAxis(GamepadAxes.codes.first { $0.code == axis }?.name ?? "\(axis)")
            }
            let pad = config.gamepad
            let low = Double(info.minimum), high = Double(info.maximum)
            // A trigger rests at its minimum (forward only); a stick at its middle.
            let trigger = [UInt16(ABS_Z), UInt16(ABS_RZ), UInt16(ABS_GAS), UInt16(ABS_BRAKE)].contains(axis)
            let rest = trigger ? (pad.invert ? high : low) : (low + high) / 2
            map = SpeedMap(reverseEnd: pad.invert ? high : low, forwardEnd: pad.invert ? low : high, rest: rest,
                           neutral: pad.neutral, forwardMax: pad.forwardMax, reverseMax: trigger ? 0 : pad.reverseMax,
                           curve: pad.curve)
            let axisName = GamepadAxes.codes.first { $0.code == axis }?.name ?? "axis \(axis)"
            reading = ControllerReading(id: sysname, name: name, kind: .gamepad,
                                        axis: "\(axisName) \(info.minimum)…\(info.maximum)", map: map.summary,
                                        raw: Double(info.value))
        }
        current = reading
        if case let .gamepad(axis) = kind {
            // Where the stick is now (a pad plugged in with the trigger held is not at rest).
            current = moved(to: Double(libevdev_get_event_value(made, UInt32(EV_ABS), UInt32(axis))))
        }
    }

    deinit { libevdev_free(device) }

    private func moved(to raw: Double) -> ControllerReading {
        var next = reading
        next.raw = raw
        next.travel = map.travel(at: raw)
        next.speed = map.speed(at: raw)
        return next
    }

    /// Reads what is pending. Returns false when the device is gone (ENODEV).
    func drain(controller: (ControllerEvent) -> Void, button: (UInt32, Double) -> Void) -> Bool {
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let status = libevdev_next_event(device, flags, &event)
            if status == -EAGAIN {
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue { flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue; continue }
                return true
            }
            if status < 0 { return status != -ENODEV && status != -EIO ? true : false }
            if status == LIBEVDEV_READ_STATUS_SYNC.rawValue {
                // The kernel dropped events: libevdev replays the device's state; the jog
                // counter starts a new baseline rather than counting a leap.
                flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                shuttle.resynchronise()
            }
            let time = Double(event.time.tv_sec) + Double(event.time.tv_usec) / 1_000_000
            handle(type: event.type, code: event.code, value: event.value, time: time,
                   controller: controller, button: button)
        }
    }

    private func handle(type: UInt16, code: UInt16, value: Int32, time: Double,
                        controller: (ControllerEvent) -> Void, button: (UInt32, Double) -> Void) {
        if type == UInt16(EV_KEY), value == 1 { button(UInt32(code), time) }
        switch kind {
        case .shuttle:
            if type == UInt16(EV_SYN), code == UInt16(SYN_REPORT) {
                let change = shuttle.sync()
                if let ring = change.ring {
                    current = moved(to: Double(ring))
                    controller(.moved(current, time: time))
                }
                if change.detents != 0 {
                    controller(.jogged(id: reading.id, detents: change.detents, time: time))
                }
            } else {
                shuttle.event(type: type, code: code, value: value)
            }
        case let .gamepad(axis):
            guard type == UInt16(EV_ABS), code == axis else { return }
            let next = moved(to: Double(value))
            // Every speed change, and the position in hundredths of the axis for the status
            // (inside the neutral band too, where the travel stays 0).
            let span = abs(map.forwardEnd - map.reverseEnd)
            let changed = next.speed != current.speed || abs(next.raw - current.raw) >= span / 100
            current = next
            if changed { controller(.moved(current, time: time)) }
        }
    }
}

enum ControllerOpenError: Error, CustomStringConvertible {
    case libevdev(Int32)
    case noAxis(String)

    var description: String {
        switch self {
        case let .libevdev(code): "libevdev cannot read it: \(String(cString: strerror(code)))"
        case let .noAxis(name): "it has no \(name) axis ([controllers.gamepad] axis)"
        }
    }
}
