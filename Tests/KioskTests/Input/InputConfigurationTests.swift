import CInput
import Testing
@testable import Kiosk
@testable import Stage

@Suite struct InputConfigurationTests {
    @Test func readsTouchRotationCalibrationAndKeysFromRigConfig() {
        var config = RigConfig()
        config.touch.device = "ID_PATH=pci-0000:00:14.0-usb-0:2:1.0"
        config.touch.calibration = [-1, 0, 1, 0, 1, 0]
        config.displays.outer.rotation = 90
        config.keys = ["next_marker": ["PageDown"]]
        let input = InputConfiguration(config: config, outerWidth: 1080, outerHeight: 1920,
                                       innerWidth: 1280, innerHeight: 800)
        #expect(input.outerTouch == .udevProperty(key: "ID_PATH", value: "pci-0000:00:14.0-usb-0:2:1.0"))
        #expect(input.outerMapping == TouchMapping(width: 1080, height: 1920, rotation: .quarter,
                                                   calibration: [-1, 0, 1, 0, 1, 0]))
        #expect(input.innerWidth == 1280)
        #expect(input.bindings.action(forKey: UInt32(KEY_PAGEDOWN)) == .nextMarker)
        #expect(input.bindings.action(forKey: UInt32(KEY_UP)) == .faster)
    }

    @Test func theDefaultTouchDeviceIsAutoAndEmptyMeansNone() {
        var config = RigConfig()
        let input = InputConfiguration(config: config, outerWidth: 1920, outerHeight: 1080,
                                       innerWidth: 1920, innerHeight: 1080)
        #expect(input.outerTouch == .auto)
        #expect(input.bindings == KeyBindings.defaults)
        config.touch.device = ""
        #expect(InputConfiguration(config: config, outerWidth: 1920, outerHeight: 1080, innerWidth: 1920,
                                   innerHeight: 1080).outerTouch == nil)
    }
}
