import CUdev
import Foundation
import Glibc
import Stage

/// The hand controllers libinput leaves alone (issue 40): Contour shuttles and evdev
/// joysticks, found through udev when the kiosk starts and as they are plugged in or
/// out, opened through the seat like every other input device and read on the loop.
/// Their events go to `handler` as the stage's; their buttons as key presses.
final class ControllerDevices {
    /// Contour's shuttles by USB vendor and product (as Dan Dennedy's mediactrl.c lists
    /// them): ShuttleXpress, ShuttlePRO v2, ShuttlePRO and its OEM twin, the first ShuttlePRO.
    static let shuttles: Set<String> = ["0b33:0020", "0b33:0030", "0b33:0010", "0b33:0011", "05f3:0240"]

    private struct Open {
        let device: EvdevController
        let reader: EventLoop.SourceID
    }

    private let loop: EventLoop
    private let config: RigConfig.Controllers
    private let opener: InputDeviceOpener
    private let handler: (StageEvent) -> Void
    private let bindings: KeyBindings
    private let monitor: UdevMonitor?
    private var monitorReader: EventLoop.SourceID?
    private var open: [String: Open] = [:]
    /// Why a controller present could not be used, by node, for `rig devices` and the journal.
    private(set) var refused: [String: String] = [:]

    init(loop: EventLoop, config: RigConfig.Controllers, keys: KeyBindings, opener: InputDeviceOpener,
         handler: @escaping (StageEvent) -> Void) {
        self.loop = loop
        self.config = config
        self.opener = opener
        self.handler = handler
        bindings = keys
        monitor = try? UdevMonitor(subsystem: "input", source: .udev)
        if let monitor {
            monitorReader = loop.addReader(fd: monitor.fd, name: "controllers") { [weak self] in self?.hotplug() }
        }
        for found in Self.present() { add(found) }
    }

    deinit {
        if let monitorReader { loop.remove(monitorReader) }
        for (_, entry) in open { close(entry) }
    }

    /// The seat was taken away (a VT switch): its descriptors are revoked, so every
    /// controller is let go (one steering pauses the text) until `resume`.
    func suspend() {
        for sysname in Array(open.keys) { remove(sysname) }
    }

    /// The seat is back: the controllers present are opened again.
    func resume() {
        for found in Self.present() { add(found) }
    }

    /// The controllers open now, for `rig devices`.
    var readings: [ControllerReading] { open.values.map(\.device.current).sorted { $0.id < $1.id } }

    /// A node udev describes: its event node and what it is.
    struct Found {
        var sysname: String
        var devnode: String
        var usbID: String?
        var joystick: Bool
    }

    private func kind(of found: Found) -> EvdevController.Kind? {
        if let id = found.usbID, Self.shuttles.contains(id) { return config.shuttle.enabled ? .shuttle : nil }
        if found.joystick, config.gamepad.enabled, let axis = GamepadAxes.code(config.gamepad.axis) {
            return .gamepad(axis: axis)
        }
        return nil
    }

    private func add(_ found: Found) {
        guard open[found.sysname] == nil, let kind = kind(of: found) else { return }
        let fd = opener.openDevice(path: found.devnode, flags: O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else {
            refused[found.sysname] = "cannot open \(found.devnode): \(String(cString: strerror(-fd)))"
            KioskLog.error("controller \(found.devnode): \(refused[found.sysname] ?? "")")
            return
        }
        do {
            let device = try EvdevController(fd: fd, sysname: found.sysname, kind: kind, config: config)
            let reader = loop.addReader(fd: fd, name: "controller \(found.sysname)") { [weak self] in
                self?.read(found.sysname)
            }
            open[found.sysname] = Open(device: device, reader: reader)
            refused[found.sysname] = nil
            handler(.controller(.added(device.current)))
            if device.current.speed != 0 { handler(.controller(.moved(device.current, time: loop.clock()))) }
        } catch {
            opener.closeDevice(fd: fd)
            refused[found.sysname] = error.description
            KioskLog.error("controller \(found.devnode): \(error)")
        }
    }

    private func read(_ sysname: String) {
        guard let entry = open[sysname] else { return }
        let alive = entry.device.drain(controller: { handler(.controller($0)) }) { [bindings] code, time in
            handler(.key(KeyPress(code: code, action: bindings.action(forKey: code), time: time)))
        }
        if !alive { remove(sysname) }
    }

    private func remove(_ sysname: String) {
        refused[sysname] = nil
        guard let entry = open.removeValue(forKey: sysname) else { return }
        close(entry)
        handler(.controller(.removed(id: sysname, time: loop.clock())))
    }

    private func close(_ entry: Open) {
        loop.remove(entry.reader)
        opener.closeDevice(fd: entry.device.fd)
    }

    private func hotplug() {
        var added: [Found] = [], removed: [String] = []
        _ = monitor?.drain { event in
            guard let sysname = event.sysname, sysname.hasPrefix("event") else { return false }
            switch event.action {
            case "add": if let found = Self.found(event.property) { added.append(found) }
            case "remove": removed.append(sysname)
            default: break
            }
            return false
        }
        for sysname in removed { remove(sysname) }
        for found in added { add(found) }
    }

    /// Builds a `Found` from a device's udev properties.
    static func found(_ property: (String) -> String?) -> Found? {
        guard let devnode = property("DEVNAME"), let sysname = devnode.split(separator: "/").last.map(String.init),
              sysname.hasPrefix("event") else { return nil }
        return Found(sysname: sysname, devnode: devnode, usbID: inputID(sysname),
                     joystick: property("ID_INPUT_JOYSTICK") == "1")
    }

    /// "vvvv:pppp": the vendor and product the input device itself carries (the USB ids
    /// of a HID device, what a uinput device was created with), from sysfs.
    static func inputID(_ sysname: String) -> String? {
        func read(_ name: String) -> String? {
            guard let text = try? String(contentsOfFile: "/sys/class/input/\(sysname)/device/id/\(name)", encoding: .utf8)
            else { return nil }
            return text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        }
        guard let vendor = read("vendor"), let product = read("product") else { return nil }
        return "\(vendor):\(product)"
    }

    /// `rig devices`: each controller present, opened and let go, with its kind and
    /// speed control, or why the kiosk could not use it.
    static func describe(config: RigConfig.Controllers, opener: InputDeviceOpener = DirectInputDeviceOpener()) -> [String] {
        let probe = present().compactMap { found -> String? in
            let kind: EvdevController.Kind
            if let id = found.usbID, shuttles.contains(id) {
                guard config.shuttle.enabled else { return "\(found.sysname)\tshuttle\toff ([controllers.shuttle] enabled = false)" }
                kind = .shuttle
            } else if found.joystick {
                guard config.gamepad.enabled, let axis = GamepadAxes.code(config.gamepad.axis) else {
                    return "\(found.sysname)\tgamepad\toff ([controllers.gamepad] enabled = false)"
                }
                kind = .gamepad(axis: axis)
            } else {
                return nil
            }
            let fd = opener.openDevice(path: found.devnode, flags: O_RDONLY | O_NONBLOCK)
            guard fd >= 0 else { return "\(found.sysname)\tcannot open \(found.devnode): \(String(cString: strerror(-fd)))" }
            defer { opener.closeDevice(fd: fd) }
            do {
                let reading = try EvdevController(fd: fd, sysname: found.sysname, kind: kind, config: config).current
                return "\(reading.id)\t\(reading.name)\t\(reading.kind.rawValue)\t\(reading.axis)"
            } catch {
                return "\(found.sysname)\tnot usable: \(error)"
            }
        }
        return probe.isEmpty ? ["no shuttle or gamepad"] : probe
    }

    /// The input event nodes present now, from udev's database.
    static func present() -> [Found] {
        guard let udev = udev_new() else { return [] }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "input")
        udev_enumerate_scan_devices(enumerate)
        var list: [Found] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let path = udev_list_entry_get_name(current), let device = udev_device_new_from_syspath(udev, path) {
                let found = Self.found { name in udev_device_get_property_value(device, name).map { String(cString: $0) } }
                if let found { list.append(found) }
                udev_device_unref(device)
            }
            entry = udev_list_entry_get_next(current)
        }
        return list.sorted { $0.sysname < $1.sysname }
    }
}
