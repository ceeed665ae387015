import Foundation
import Render
import Testing
@testable import Kiosk
@testable import Stage

/// The Self-test button of the console's Settings, pressed as the operator presses it,
/// on a headless kiosk: its own displays' flips, the talent's taps through the input
/// side, its own disk; the report on the inner display and in the state folder.
@Suite(.serialized) struct SelfTestConsoleTests {
    func outerCanvas(_ rig: ConsoleHarness) throws -> Canvas {
        let headless = try #require(rig.app.displaysBackend as? HeadlessBackend)
        let screen = try #require(headless.screen(.outer))
        let canvas = try Canvas(size: PixelSize(width: screen.width, height: screen.height))
        for y in 0..<screen.height {
            for x in 0..<screen.width { canvas.pixels[y * screen.width + x] = 0xff00_0000 | screen.pixel(x: x, y: y) }
        }
        return canvas
    }

    @Test func theSettingsButtonRunsTheSelfTestAndKeepsItsReport() throws {
        let rig = try ConsoleHarness(overrides: ["prompter.mirror=true"])
        rig.app.stage.console.show(.settings)
        rig.settle()
        rig.click(SettingsScreen.selfTestID)
        let selfTests = rig.app.stage.selfTests
        #expect(rig.run(seconds: 15) { selfTests.run?.phase == .touch })
        // The talent's card, mirrored as the text is, waits for taps (the bar has stopped).
        #expect(rig.run(seconds: 2) { rig.app.stage.shown[.outer]?.selfTestCard?.tapTarget == true })
        try SceneReferenceImage.expectMatch(outerCanvas(rig), named: "selftest-outer-card-mirror")
        for tap in 1...5 {
            rig.app.handle(.outerTap(time: rig.app.loop.clock()))
            #expect(rig.run(seconds: 2) { (rig.app.stage.shown[.outer]?.selfTestCard?.taps ?? 0) >= tap })
        }
        #expect(rig.run(seconds: 15) { selfTests.last?.finished == true })
        let report = try #require(selfTests.last)
        #expect(report.steps.map(\.id) == ["display.inner", "display.outer", "camera", "touch", "sound", "recording", "storage",
                                            "clock", "network"])
        #expect(report.steps[5].lines == ["no camera streams, so there is nothing to record"])
        let touch = report.steps[3]
        #expect(touch.verdict == .ok, "\(touch.lines)")
        #expect(touch.figures["outer_taps"] == .int(5))
        #expect((touch.figures["tap_to_flip_ms"]?.arrayValue?.count ?? 0) == 5)
        let outer = report.steps[1]
        #expect(outer.lines.first?.hasPrefix("headless-outer: 640x360@60") == true || outer.lines.first?.contains("640x360@60") == true)
        #expect((outer.figures["vblanks"]?.numberValue ?? 0) > 200, "5 s of flips at 60 Hz")
        // A headless kiosk plays no sound, and says so as a problem.
        #expect(report.steps[4].verdict == .problem)
        #expect(report.steps[4].lines.contains("nothing can play: sound is off in this kiosk (headless)"))
        // The copy for support: owner-only, the same report.
        let json = rig.root.appendingPathComponent("selftest.json")
        let attributes = try FileManager.default.attributesOfItem(atPath: json.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let saved = JSONValue.parse(try Data(contentsOf: json))
        #expect(saved == report.json)
        #expect(try String(contentsOf: rig.root.appendingPathComponent("selftest.txt"), encoding: .utf8)
            .contains("PROBLEM Sound"))
        // The results stay on the inner display until a key closes them.
        #expect(selfTests.run?.phase == .finished)
        rig.key("Esc")
        #expect(selfTests.run == nil)
        #expect(rig.state.screen == .settings)
    }

    @Test func theButtonSaysWhyItWillNotStartWhileTheTalentReads() throws {
        let rig = try ConsoleHarness()
        #expect(rig.app.stage.handle(.play).body["ok"] == true)
        rig.app.stage.console.show(.settings)
        rig.settle()
        rig.click(SettingsScreen.selfTestID)
        #expect(rig.app.stage.selfTests.run == nil)
        #expect(rig.state.selfTestRefusal == "Not started: the prompter is playing: pause it first.")
    }

    @Test func escapeCancelsASelfTestAndKeepsWhatRan() throws {
        let rig = try ConsoleHarness()
        #expect(rig.app.stage.handle(.selfTest(start: true, touchSeconds: 30)).body["ok"] == true)
        let selfTests = rig.app.stage.selfTests
        #expect(rig.run(seconds: 15) { selfTests.run?.phase == .touch })
        rig.key("Esc")
        let report = try #require(selfTests.last)
        #expect(report.finished)
        #expect(report.running == "cancelled")
        #expect(report.steps.map(\.id) == ["display.inner", "display.outer", "camera"])
        #expect(report.steps[1].figures["vblank_counter"] == false, "the headless backend's sequences count flips")
    }

    @Test func withTheRemoteOnTheResultsShowAPairingQRAndNoSecretIsKept() throws {
        let rig = try ConsoleHarness(overrides: ["remote.enabled=true", "remote.port=0"])
        #expect(rig.app.stage.handle(.selfTest(start: true, touchSeconds: 0)).body["ok"] == true)
        let selfTests = rig.app.stage.selfTests
        #expect(rig.run(seconds: 30) { selfTests.last?.finished == true })
        let report = try #require(selfTests.last)
        let network = try #require(report.steps.last)
        #expect(network.id == "network")
        #expect(network.figures["pairing_opened"] == true)
        #expect(network.lines.last == "a phone pairs with the QR code on the inner display, for five minutes")
        let address = try #require(rig.app.stage.remoteAccess?.shown.pairingAddress)
        // The results card shows the code, as a phone's camera reads it.
        #expect(rig.run(seconds: 2) { rig.app.stage.shown[.inner]?.selfTestCard?.pairingQR != nil })
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("rig-selftest-results.png").path
        try rig.innerCanvas().writePNG(path: png)
        #expect(try RemoteEndToEnd.RemotePairingQRTests.zbar(png) == address)
        // The one-time address is a secret: not in the report, its copies or the journal lines.
        let code = try #require(address.split(separator: "/").last.map(String.init))
        #expect(!report.json.serialized.contains(code))
        let kept = try String(contentsOf: rig.root.appendingPathComponent("selftest.json"), encoding: .utf8)
            + String(contentsOf: rig.root.appendingPathComponent("selftest.txt"), encoding: .utf8)
        #expect(!kept.contains(code))
    }
}
