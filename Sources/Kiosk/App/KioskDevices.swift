/// The devices a kiosk opens itself. `rig run` opens all; the headless tests open none
/// (their input and camera events are handed to the stage), unless a test asks.
struct KioskDevices: OptionSet {
    let rawValue: Int
    static let input = KioskDevices(rawValue: 1 << 0)
    static let camera = KioskDevices(rawValue: 1 << 1)
    static let audio = KioskDevices(rawValue: 1 << 2)
    static let all: KioskDevices = [.input, .camera, .audio]
}
