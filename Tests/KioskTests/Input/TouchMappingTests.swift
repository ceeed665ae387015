import Testing
@testable import Kiosk
@testable import Stage

@Suite struct TouchMappingTests {
    private func close(_ a: (x: Double, y: Double), _ b: (Double, Double)) -> Bool {
        abs(a.x - b.0) < 1e-9 && abs(a.y - b.1) < 1e-9
    }

    @Test func unrotatedScalesToTheDisplay() {
        let mapping = TouchMapping(width: 1920, height: 1080)
        #expect(close(mapping.map(sensorX: 0.5, sensorY: 0.25), (960, 270)))
    }

    @Test func quarterTurnMapsThePanelCornersToTheLogicalOnes() {
        // A 1080x1920 portrait picture drawn turned 90° clockwise on a landscape panel:
        // the logical top-left sits at the panel's top-right.
        let mapping = TouchMapping(width: 1080, height: 1920, rotation: .quarter)
        #expect(close(mapping.map(sensorX: 1, sensorY: 0), (0, 0)))
        #expect(close(mapping.map(sensorX: 1, sensorY: 1), (1080, 0)))
        #expect(close(mapping.map(sensorX: 0, sensorY: 0), (0, 1920)))
        #expect(close(mapping.map(sensorX: 0.75, sensorY: 0.5), (540, 480)))
    }

    @Test func halfAndThreeQuarterTurns() {
        let half = TouchMapping(width: 100, height: 50, rotation: .half)
        #expect(close(half.map(sensorX: 0.1, sensorY: 0.2), (90, 40)))
        let threeQuarters = TouchMapping(width: 50, height: 100, rotation: .threeQuarters)
        // Logical top-left sits at the panel's bottom-left.
        #expect(close(threeQuarters.map(sensorX: 0, sensorY: 1), (0, 0)))
        #expect(close(threeQuarters.map(sensorX: 1, sensorY: 1), (0, 100)))
    }

    @Test func calibrationAppliesInSensorSpaceBeforeTheRotation() {
        // A sensor mounted mirrored left-right: x' = 1 - x.
        var mapping = TouchMapping(width: 200, height: 100)
        mapping.calibration = [-1, 0, 1, 0, 1, 0]
        #expect(close(mapping.map(sensorX: 0.25, sensorY: 0.5), (150, 50)))
        mapping.rotation = .half
        #expect(close(mapping.map(sensorX: 0.25, sensorY: 0.5), (50, 50)))
    }

    @Test func positionsOutsideTheGlassAreClampedAndBadMatricesIgnored() {
        var mapping = TouchMapping(width: 200, height: 100)
        mapping.calibration = [1.2, 0, -0.1, 0, 1, 0]
        #expect(close(mapping.map(sensorX: 0.99, sensorY: 1.2), (200, 100)))
        mapping.calibration = [1, 0, .nan, 0, 1, 0]
        #expect(close(mapping.map(sensorX: 0.5, sensorY: 0.5), (100, 50)))
        #expect(!TouchMapping.validCalibration([1, 0, 0, 0, 1]))
    }
}

@Suite struct OuterTouchSelectorTests {
    @Test func readsTheThreeSpellingsOfTheConfigValue() {
        #expect(OuterTouchSelector(configValue: "ILITEK ILITEK-TP") == .name("ILITEK ILITEK-TP"))
        #expect(OuterTouchSelector(configValue: "ID_PATH=pci-0000:00:14.0-usb-0:2:1.0")
            == .udevProperty(key: "ID_PATH", value: "pci-0000:00:14.0-usb-0:2:1.0"))
        #expect(OuterTouchSelector(configValue: "/dev/input/event7") == .devicePath("/dev/input/event7"))
        #expect(OuterTouchSelector(configValue: "  ") == nil)
        // A name with "=" in it that is not a property key stays a name.
        #expect(OuterTouchSelector(configValue: "Panel v=2") == .name("Panel v=2"))
    }

    @Test func matchesByNamePropertyOrNode() {
        let props = ["ID_PATH": "platform-i8042", "ID_INPUT_TOUCHSCREEN": "1"]
        let lookup: (String) -> String? = { props[$0] }
        #expect(OuterTouchSelector.name("rig outer touch").matches(name: "rig outer touch", devnode: nil, property: lookup))
        #expect(!OuterTouchSelector.name("rig outer").matches(name: "rig outer touch", devnode: nil, property: lookup))
        #expect(OuterTouchSelector.udevProperty(key: "ID_PATH", value: "platform-i8042")
            .matches(name: "x", devnode: nil, property: lookup))
        #expect(!OuterTouchSelector.udevProperty(key: "ID_PATH", value: "platform-i8043")
            .matches(name: "x", devnode: nil, property: lookup))
        #expect(OuterTouchSelector.devicePath("/dev/input/event3")
            .matches(name: "x", devnode: "/dev/input/event3", property: lookup))
    }
}
