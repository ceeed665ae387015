import Foundation
import Testing
@testable import Prompter

@Suite struct ReadingSettingsTests {
    func decode(_ json: String, defaults: ReadingSettings = .standard) throws -> ReadingSettings {
        try ReadingSettings.decoded(from: Data(json.utf8), defaults: defaults)
    }

    @Test func defaultsAreWhiteOnBlackNotoSans() {
        let s = ReadingSettings.standard
        #expect(s.fontFamily == .notoSans)
        #expect(s.fontSize == 64)
        #expect(s.lineSpacing == 1.3)
        #expect(s.margin == 10)
        #expect(s.textColor == .white)
        #expect(s.backgroundColor == .black)
        #expect(!s.mirror && !s.flip)
        #expect(s.rotation == .none)
        #expect(s.speed == 60)
    }

    @Test func jsonRoundTripKeepsEverything() throws {
        let custom = ReadingSettings(fontFamily: .dejaVuSansMono, fontSize: 96, lineSpacing: 1.75, margin: 22.5,
                                     textColor: .yellow, backgroundColor: .navy, mirror: true, flip: true,
                                     rotation: .threeQuarters, speed: 145)
        let data = try JSONEncoder().encode(custom)
        #expect(try JSONDecoder().decode(ReadingSettings.self, from: data) == custom)
        #expect(try decode(String(decoding: data, as: UTF8.self)) == custom)
    }

    @Test func coloursAndFontsAreStoredByName() throws {
        let data = try JSONEncoder().encode(ReadingSettings(fontFamily: .liberationSerif, textColor: .cream))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["textColor"] as? String == "cream")
        #expect(object["backgroundColor"] as? String == "black")
        #expect(object["fontFamily"] as? String == "Liberation Serif")
        #expect(object["rotation"] as? Int == 0)
    }

    @Test func outOfRangeValuesAreClampedOnDecode() throws {
        let s = try decode(#"{"fontSize": 500, "lineSpacing": 0.2, "margin": 40, "speed": 1, "rotation": 100}"#)
        #expect(s.fontSize == 120)
        #expect(s.lineSpacing == 1.0)
        #expect(s.margin == 25)
        #expect(s.speed == 10)
        #expect(s.rotation == .quarter)
        let low = try decode(#"{"fontSize": -4, "lineSpacing": 9, "margin": -1, "speed": 1e300, "rotation": -90}"#)
        #expect(low.fontSize == 20)
        #expect(low.lineSpacing == 2.0)
        #expect(low.margin == 0)
        #expect(low.speed == 300)
        #expect(low.rotation == .threeQuarters)
    }

    @Test func unknownNamesAndWrongTypesFallBackPerKey() throws {
        let s = try decode(#"{"fontFamily": "Comic Sans", "textColor": "plaid", "fontSize": "big", "mirror": true}"#)
        #expect(s.fontFamily == .notoSans)
        #expect(s.textColor == .white)
        #expect(s.fontSize == 64)
        #expect(s.mirror)
    }

    @Test func missingKeysTakeTheRigDefaults() throws {
        let rig = ReadingSettings(fontSize: 80, backgroundColor: .navy, speed: 90)
        let s = try decode(#"{"mirror": true}"#, defaults: rig)
        #expect(s.fontSize == 80)
        #expect(s.backgroundColor == .navy)
        #expect(s.speed == 90)
        #expect(s.mirror)
    }

    @Test func settersClamp() {
        var s = ReadingSettings()
        s.fontSize = 10
        s.lineSpacing = .nan
        s.margin = 99
        #expect(s.fontSize == 20)
        #expect(s.lineSpacing == 1.3)
        #expect(s.margin == 25)
    }

    @Test func fontsAndColoursAreTheDocumentedSets() {
        #expect(FontFamily.allCases.map(\.familyName) ==
                ["Noto Sans", "Noto Serif", "Liberation Sans", "Liberation Serif", "DejaVu Sans Mono"])
        #expect(Set(FontFamily.allCases.map(\.debianPackage)) ==
                ["fonts-noto-core", "fonts-liberation2", "fonts-dejavu-core"])
        #expect(PresetColor.allCases.count == 8)
        #expect(Set(PresetColor.allCases.map(\.rgbHex)).count == 8)
        #expect(PresetColor.white.rgbHex == 0xFFFFFF)
        #expect(PresetColor.black.rgbHex == 0x000000)
    }

    @Test func rotationSnapsToQuarterTurns() {
        #expect(TextRotation(snapping: 0) == .none)
        #expect(TextRotation(snapping: 44) == .none)
        #expect(TextRotation(snapping: 46) == .quarter)
        #expect(TextRotation(snapping: 180) == .half)
        #expect(TextRotation(snapping: -90) == .threeQuarters)
        #expect(TextRotation(snapping: 350) == .none)
        #expect(TextRotation.quarter.isSideways && !TextRotation.half.isSideways)
    }
}
