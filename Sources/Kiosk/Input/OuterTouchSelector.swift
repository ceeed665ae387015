import Foundation
import Stage

/// How rig.toml `[touch] device` names the outer touchscreen: by the name the kernel
/// gives it (`"ILITEK ILITEK-TP"`), by a udev property (`"ID_PATH=pci-0000:00:14.0-usb-0:2:1.0"`,
/// stable across reboots and identical panels), by its node (`/dev/input/by-path/...`),
/// or `"auto"` (the default): the only touchscreen present (`AutoTouchChoice`).
enum OuterTouchSelector: Sendable, Equatable, CustomStringConvertible {
    case auto
    case name(String)
    case udevProperty(key: String, value: String)
    case devicePath(String)

    /// Reads the rig.toml string; nil for an empty one (no outer touchscreen).
    init?(configValue: String) {
        let value = configValue.trimmingCharacters(in: .whitespaces)
        if value.isEmpty { return nil }
        if value == "auto" {
            self = .auto
        } else if value.hasPrefix("/dev/") {
            self = .devicePath(value)
        } else if let equals = value.firstIndex(of: "="),
                  value[..<equals].allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }),
                  equals != value.startIndex {
            self = .udevProperty(key: String(value[..<equals]), value: String(value[value.index(after: equals)...]))
        } else {
            self = .name(value)
        }
    }

    /// Whether a device matches. `property` looks up the device's udev properties;
    /// `devnode` is its /dev/input/eventN path.
    func matches(name deviceName: String, devnode: String?, property: (String) -> String?) -> Bool {
        switch self {
        // Decided over all touchscreens present (AutoTouchChoice), not per device.
        case .auto: return false
        case let .name(wanted): return deviceName == wanted
        case let .udevProperty(key, value): return property(key) == value
        case let .devicePath(path):
            // by-path and by-id links resolve to the event node.
            guard let devnode else { return false }
            let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: path))
                .map { URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: path).deletingLastPathComponent()).standardizedFileURL.path }
            return path == devnode || resolved == devnode
        }
    }

    var description: String {
        switch self {
        case .auto: "auto (the only touchscreen present)"
        case let .name(name): "name \"\(name)\""
        case let .udevProperty(key, value): "udev property \(key)=\(value)"
        case let .devicePath(path): "node \(path)"
        }
    }
}
