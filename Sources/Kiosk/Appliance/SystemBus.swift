import CSystemd
import Foundation

/// A connection to the system's D-Bus (sd-bus), for what the kiosk asks of systemd as
/// the unprivileged user `rig`: stopping the mount unit of a stick it ejects, and
/// starting the install of a rig package the operator chose on a stick, which polkit's
/// rig-media.rules allows it and nothing more. Owns the sd_bus handle.
final class SystemBus {
    enum Failure: Error, Equatable, CustomStringConvertible {
        case connect(String)
        case refused(verb: String, unit: String, name: String, message: String)

        var description: String {
            switch self {
            case let .connect(reason): "no connection to the system bus (\(reason)); is dbus running?"
            case let .refused(verb, unit, name, message): "systemd did not \(verb) \(unit): \(message) (\(name))"
            }
        }
    }

    private let bus: OpaquePointer

    init() throws(Failure) {
        var handle: OpaquePointer?
        let result = sd_bus_open_system(&handle)
        guard result >= 0, let handle else { throw .connect(String(cString: strerror(-result))) }
        bus = handle
    }

    deinit { sd_bus_flush_close_unref(bus) }

    /// Asks systemd to stop `unit` (its job is queued; the caller waits for its effect).
    func stopUnit(_ unit: String) throws(Failure) {
        try call("stop", unit, rig_sd_bus_stop_unit)
    }

    /// Asks systemd to start `unit` (its job is queued; the caller watches its effect).
    func startUnit(_ unit: String) throws(Failure) {
        try call("start", unit, rig_sd_bus_start_unit)
    }

    private typealias Method = (OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<sd_bus_error>?,
                                UnsafeMutablePointer<OpaquePointer?>?) -> Int32

    private func call(_ verb: String, _ unit: String, _ method: Method) throws(Failure) {
        var error = sd_bus_error()
        var reply: OpaquePointer?
        defer {
            sd_bus_error_free(&error)
            if let reply { sd_bus_message_unref(reply) }
        }
        let result = method(bus, unit, &error, &reply)
        guard result >= 0 else {
            let name = error.name.map { String(cString: $0) } ?? "errno \(-result)"
            let message = error.message.map { String(cString: $0) } ?? String(cString: strerror(-result))
            throw .refused(verb: verb, unit: unit, name: name, message: message)
        }
    }
}
