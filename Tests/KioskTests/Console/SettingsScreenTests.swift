import Render
import Testing
@testable import Kiosk
@testable import Stage

/// The Settings screen on a small inner display: its nineteen rows do not fit, so it
/// shows the rows around the focused one, and Up and Down reach every setting.
@Suite struct SettingsScreenTests {
    @Test func aShortDisplayScrollsToTheFocusedSettingAndTheKeysReachEveryRow() throws {
        let rig = try ConsoleHarness(inner: PixelSizeArgument(width: 480, height: 270))
        rig.app.stage.console.show(.settings)
        rig.settle()
        rig.key("Down")
        #expect(rig.app.stage.console.state.focus == SettingsScreen.Item.fontFamily.id)
        let bottom = 270
        func drawnRows() -> [WidgetID] {
            rig.app.stage.console.targets.all.filter { $0.group == "settings" }.map(\.id)
        }
        #expect(!drawnRows().contains(SettingsScreen.Item.highlightColor.id), "19 rows do not fit in 270 px")
        for item in SettingsScreen.Item.allCases.dropFirst() {
            rig.key("Down")
            #expect(rig.app.stage.console.state.focus == item.id)
            let target = try #require(rig.target(item.id))
            #expect(target.rect.maxY <= bottom, "\(item) is drawn on the display")
        }
        // Right steps the last row's value, as on a tall display.
        let before = rig.app.stage.controller.settings.highlightColor
        rig.key("Right")
        #expect(rig.app.stage.controller.settings.highlightColor != before)
        for item in SettingsScreen.Item.allCases.reversed().dropFirst() {
            rig.key("Up")
            #expect(rig.app.stage.console.state.focus == item.id)
        }
        #expect(drawnRows().first == SettingsScreen.Item.fontFamily.id)
    }
}
