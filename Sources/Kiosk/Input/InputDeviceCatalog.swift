import CInput
import CUdev
import Stage

/// What libinput knows about one device, read once when it is added.
extension InputDevices {
    static func describe(_ device: OpaquePointer, outerTouch: OuterTouchSelector?) -> InputDeviceInfo {
        let name = String(cString: libinput_device_get_name(device))
        let sysname = String(cString: libinput_device_get_sysname(device))
        let flags: [(libinput_device_capability, InputDeviceInfo.Capability)] = [
            (LIBINPUT_DEVICE_CAP_KEYBOARD, .keyboard), (LIBINPUT_DEVICE_CAP_POINTER, .pointer),
            (LIBINPUT_DEVICE_CAP_TOUCH, .touch), (LIBINPUT_DEVICE_CAP_TABLET_TOOL, .tabletTool),
            (LIBINPUT_DEVICE_CAP_TABLET_PAD, .tabletPad), (LIBINPUT_DEVICE_CAP_GESTURE, .gesture),
            (LIBINPUT_DEVICE_CAP_SWITCH, .switchDevice),
        ]
        let capabilities = Set(flags.filter { libinput_device_has_capability(device, $0.0) != 0 }.map(\.1))
        var isOuter = false
        if let outerTouch, capabilities.contains(.touch) {
            let udevDevice = libinput_device_get_udev_device(device)
            defer { if let udevDevice { udev_device_unref(udevDevice) } }
            let devnode = udevDevice.flatMap { udev_device_get_devnode($0) }.map { String(cString: $0) }
            isOuter = outerTouch.matches(name: name, devnode: devnode) { key in
                udevDevice.flatMap { udev_device_get_property_value($0, key) }.map { String(cString: $0) }
            }
        }
        return InputDeviceInfo(name: name, sysname: sysname, capabilities: capabilities,
                               role: isOuter ? .outerTouchscreen : .inner)
    }

    /// The input devices on the seat now, for `rig devices`: a short-lived context that
    /// takes the seat, reads the devices it announces and lets them go.
    static func list(outerTouch: OuterTouchSelector?, opener: InputDeviceOpener = DirectInputDeviceOpener(),
                     seat: String = "seat0") throws -> [InputDeviceInfo] {
        let context = try LibinputContext(opener: opener, seat: seat)
        context.dispatch()
        var found: [InputDeviceInfo] = []
        while let event = context.nextEvent() {
            if event.type == LIBINPUT_EVENT_DEVICE_ADDED, let device = event.device {
                found.append(describe(device, outerTouch: outerTouch))
            }
        }
        if outerTouch == .auto {
            found = AutoTouchChoice(touchscreens: found.filter { $0.capabilities.contains(.touch) }).apply(to: found)
        }
        return found.sorted { $0.sysname.localizedStandardCompare($1.sysname) == .orderedAscending }
    }
}
