import CXKB
import Foundation
import Stage

/// rig.toml `[keyboard]`: the XKB layout of the operator's keyboards, as XKB's rules
/// name it ("us", "de", "fr", "gb"; variants such as "nodeadkeys" or "dvorak").
struct KeyboardLayoutNames: Sendable, Equatable, CustomStringConvertible {
    var layout = "us"
    var variant = ""

    var description: String { variant.isEmpty ? "\"\(layout)\"" : "\"\(layout)\" variant \"\(variant)\"" }
}

/// Why a keyboard layout cannot be used. The kiosk then falls back to the US meaning of
/// the editing keys, with no typed text (`KeyMeaning.fallback`).
enum KeyboardKeymapError: Error, Sendable, Equatable, CustomStringConvertible {
    case contextCreation
    /// No XKB data at all (Debian's xkb-data is missing); `searched` lists the folders.
    case noLayoutData(searched: [String])
    case unknownLayout(String)
    case unknownVariant(layout: String, variant: String)

    var description: String {
        switch self {
        case .contextCreation:
            "libxkbcommon could not create a context"
        case let .noLayoutData(searched):
            "no XKB keyboard layouts found (searched \(searched.isEmpty ? "nothing" : searched.joined(separator: ", "))); "
                + "install the xkb-data package"
        case let .unknownLayout(layout):
            "XKB has no keyboard layout \"\(layout)\" (the layouts are listed in "
                + "/usr/share/X11/xkb/rules/evdev.lst, e.g. \"us\", \"gb\", \"de\", \"fr\")"
        case let .unknownVariant(layout, variant):
            "XKB's layout \"\(layout)\" has no variant \"\(variant)\" (the variants are listed in "
                + "/usr/share/X11/xkb/rules/evdev.lst)"
        }
    }

    /// The rig.toml key at fault and the message for it, placed where that key was
    /// written (`places` by key path, from `RigConfig.Keyboard`); nil when the default
    /// layout failed, which is the system's fault, not the file's.
    func placed(in places: [String: ConfigPlace]) -> (place: ConfigPlace?, message: String) {
        let key = if case .unknownVariant = self { "keyboard.variant" } else { "keyboard.layout" }
        let place = places[key] ?? places.values.min { ($0.line, $0.column) < ($1.line, $1.column) }
        return (place, "\(key): \(self); keys type no text")
    }

    /// The message for the operator's banner, with the rig.toml place when the file
    /// named the layout.
    func operatorMessage(places: [String: ConfigPlace]) -> String {
        let (place, message) = placed(in: places)
        guard let place else { return message }
        return ConfigProblem.error(place, message).description
    }
}

/// The owner of one xkb_context and the xkb_keymap compiled in it from rule names: what
/// every key of the configured layout means. Per-keyboard modifier state lives in
/// `KeyboardState`, which keeps its keymap alive.
final class KeyboardKeymap {
    let names: KeyboardLayoutNames
    private let context: OpaquePointer
    let handle: OpaquePointer

    /// Compiles the layout. `includePaths` replaces XKB's default data folders (tests use
    /// it to stand for a system without xkb-data).
    init(names: KeyboardLayoutNames = KeyboardLayoutNames(), includePaths: [String]? = nil) throws(KeyboardKeymapError) {
        self.names = names
        // rig.toml is the only source of the layout: XKB_DEFAULT_LAYOUT and friends in
        // the service's environment must not change what the operator's keys type.
        var flags = XKB_CONTEXT_NO_ENVIRONMENT_NAMES.rawValue
        if includePaths != nil { flags |= XKB_CONTEXT_NO_DEFAULT_INCLUDES.rawValue }
        guard let context = xkb_context_new(xkb_context_flags(rawValue: flags)) else { throw .contextCreation }
        // The kiosk words its own messages (with the rig.toml place); xkbcommon's
        // multi-line errors on stderr would only repeat them.
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        for path in includePaths ?? [] { _ = xkb_context_include_path_append(context, path) }
        guard let keymap = Self.compile(context, layout: names.layout, variant: names.variant) else {
            let error = Self.diagnose(context, names: names, wanted: includePaths ?? ["/usr/share/X11/xkb"])
            xkb_context_unref(context)
            throw error
        }
        self.context = context
        handle = keymap
    }

    deinit {
        xkb_keymap_unref(handle)
        xkb_context_unref(context)
    }

    /// Whether holding the key repeats it: every key but the modifiers and locks on
    /// the usual layouts.
    func repeats(code: UInt32) -> Bool {
        xkb_keymap_key_repeats(handle, Self.keycode(code)) != 0
    }

    /// The layout's human name, e.g. "German (no dead keys)", for `rig input-probe`.
    var layoutName: String {
        xkb_keymap_layout_get_name(handle, 0).map { String(cString: $0) } ?? names.layout
    }

    /// XKB numbers keys as X11 did: the evdev code plus 8.
    static func keycode(_ code: UInt32) -> xkb_keycode_t { code + 8 }

    private static func compile(_ context: OpaquePointer, layout: String, variant: String) -> OpaquePointer? {
        // The rules and model every Linux console and Wayland compositor use for evdev keyboards.
        "evdev".withCString { rules in
            "pc105".withCString { model in
                layout.withCString { layout in
                    variant.withCString { variant in
                        var names = xkb_rule_names(rules: rules, model: model, layout: layout, variant: variant, options: nil)
                        return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
                    }
                }
            }
        }
    }

    /// Why a compile failed: no data at all, the layout, or only its variant.
    private static func diagnose(_ context: OpaquePointer, names: KeyboardLayoutNames, wanted: [String]) -> KeyboardKeymapError {
        var searched: [String] = []
        for index in 0..<xkb_context_num_include_paths(context) {
            if let path = xkb_context_include_path_get(context, index) { searched.append(String(cString: path)) }
        }
        guard searched.contains(where: { FileManager.default.fileExists(atPath: $0 + "/rules/evdev") }) else {
            // XKB leaves out folders that do not exist, so name the ones it looked for.
            return .noLayoutData(searched: searched.isEmpty ? wanted : searched)
        }
        if !names.variant.isEmpty, let plain = compile(context, layout: names.layout, variant: "") {
            xkb_keymap_unref(plain)
            return .unknownVariant(layout: names.layout, variant: names.variant)
        }
        return .unknownLayout(names.layout)
    }
}
