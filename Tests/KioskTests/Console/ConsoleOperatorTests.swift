import Foundation
import Prompter
import Testing
@testable import Kiosk
@testable import Stage

/// The operator view, the settings panel and the editor, driven end to end.
@Suite(.serialized) struct ConsoleOperatorTests {
    @Test func theTransportButtonsAndTheSpeedSliderDriveThePrompter() throws {
        let rig = try ConsoleHarness()
        #expect(rig.state.screen == .prompter)
        rig.click("prompter:play")
        #expect(rig.app.stage.controller.engine.state == .playing)
        rig.click("prompter:faster")
        #expect(rig.app.stage.controller.engine.speed == 70)
        // Three quarters along the slider: 10 + 0.75 × 290 ≈ 227.5, in steps of 5.
        rig.click("prompter:speed", fraction: 0.75)
        #expect((225...230).contains(rig.app.stage.controller.engine.speed))
        rig.click("prompter:play")
        #expect(rig.app.stage.controller.engine.state == .paused)
        rig.click("prompter:stop")
        #expect(rig.app.stage.controller.engine.state == .stopped)
    }

    @Test func showOnOuterIsTheOperatorsToggleAndTheViewSaysSo() throws {
        let rig = try ConsoleHarness()
        rig.click("prompter:outer")
        let status = rig.app.stage.status(at: rig.app.loop.clock())
        #expect(status["displays"]?["outer"]?["enabled"] == false)
        #expect(status["displays"]?["outer"]?["presenting"] == false)
        let model = try #require(rig.app.stage.console.targets["prompter:outer"])
        #expect(model.kind == .button)
        rig.click("prompter:outer")
        #expect(rig.app.stage.status(at: rig.app.loop.clock())["displays"]?["outer"]?["presenting"] == true)
    }

    @Test func tabMovesAVisibleFocusAndEnterActivatesIt() throws {
        let rig = try ConsoleHarness()
        let before = try rig.innerCanvas()
        rig.key("Tab")
        #expect(rig.state.focus == "tab:library")
        #expect(try !rig.innerCanvas().hasSamePixels(as: before))
        rig.key("Tab", shift: true)
        rig.key("Tab", shift: true)
        #expect(rig.state.focus != nil && rig.state.focus != "tab:library")
        // Space and the arrows stay the prompter's keys on this screen.
        rig.key("Space")
        #expect(rig.app.stage.controller.engine.state == .playing)
        rig.key("Up")
        #expect(rig.app.stage.controller.engine.speed == 70)
        rig.app.stage.console.focus("tab:settings")
        rig.key("Enter")
        #expect(rig.state.screen == .settings)
    }

    @Test func settingsApplyLiveWhilePlayingAndAreSavedAtOnce() throws {
        let rig = try ConsoleHarness()
        rig.key("Space")
        rig.click("tab:settings")
        #expect(rig.state.screen == .settings)
        rig.key("Down")
        #expect(rig.state.focus == "setting:font")
        rig.key("Down")
        rig.key("Right")
        #expect(rig.app.stage.controller.settings.fontSize == 52)
        for _ in 0..<5 { rig.key("Down") }
        #expect(rig.state.focus == "setting:mirror")
        let outerFlips = rig.flips(.outer)
        rig.key("Right")
        #expect(rig.app.stage.controller.settings.mirror)
        rig.run { rig.flips(.outer) > outerFlips + 2 }
        #expect(rig.app.stage.controller.engine.state == .playing)
        let saved = try String(contentsOf: rig.root.appendingPathComponent(SettingsStore.defaultFileName), encoding: .utf8)
        #expect(saved.contains("\"mirror\" : true") || saved.contains("\"mirror\":true"))
        #expect(saved.contains("52"))
        // A click on the left half of a value steps it down.
        rig.click("setting:size", fraction: 0.6)
        #expect(rig.app.stage.controller.settings.fontSize == 48)
    }

    @Test func theEditorFixesALineOfTheOpenScriptWhereItIsRead() throws {
        let rig = try ConsoleHarness()
        let id = try #require(rig.app.stage.controller.script?.id)
        rig.click("tab:editor")
        #expect(rig.state.screen == .editor)
        #expect(rig.state.editor?.scriptID == id)
        rig.key("End")
        rig.type(" Tonight")
        rig.run { rig.fileText(id)?.contains("Welcome to the show. Tonight") == true }
        rig.run { rig.app.stage.controller.script?.text.contains("show. Tonight") == true }
        #expect(rig.app.stage.controller.engine.state == .stopped)
        rig.click("editor:done")
        #expect(rig.state.screen == .prompter)
    }

    @Test func aClickInTheTextPutsTheCaretThere() throws {
        let rig = try ConsoleHarness()
        rig.click("tab:editor")
        rig.click("editor:line:2", fraction: 0.001)
        #expect(rig.state.editor?.caretLine.line == 2)
        #expect(rig.state.editor?.caretLine.column == 0)
        rig.click("editor:line:2", fraction: 0.98)
        #expect(rig.state.editor?.caretLine.column == "Tonight we talk about light.".count)
    }

    @Test func anUnpluggedOuterDisplayShowsAsABannerAndTheConsoleGoesOn() throws {
        let rig = try ConsoleHarness()
        let banner = ProblemBanner.color.xrgb & 0xff_ffff
        let bottomLeft = { (try? rig.innerCanvas().pixel(x: 4, y: 536)).map { $0 & 0xff_ffff } }
        #expect(bottomLeft() != banner)
        let headless = try #require(rig.app.displaysBackend as? HeadlessBackend)
        headless.disconnect(.outer)
        rig.settle()
        #expect(bottomLeft() == banner)
        rig.click("prompter:play")
        #expect(rig.app.stage.controller.engine.state == .playing)
        headless.connect(.outer)
        rig.settle()
        #expect(bottomLeft() != banner)
    }
}
