import Foundation
import Testing
@testable import Kiosk
@testable import Stage

/// The first-run card of a rig written from the disk image (issue 43): shown on the
/// inner display while the image's first boot has left `first-run-card` in the state
/// folder, answered by the operator with OK (Enter, Esc or a click), never shown again.
@Suite(.serialized) struct FirstRunCardTests {
    /// What an image rig says: fixed facts, so the pixels can be compared.
    static let card = FirstRunCard(hostname: "rig-3fa2", addresses: ["192.168.1.23", "fd00::23"], remotePort: nil,
                                   configPath: "/etc/rig/rig.toml", scriptsPath: "/var/lib/rig/scripts",
                                   rigPartition: true)

    @Test func theCardSaysTheAddressHowToPairAndWhereTheSettingsAre() throws {
        let rig = try ConsoleHarness()
        rig.app.stage.handle(.firstRun(Self.card))
        rig.settle()
        #expect(rig.state.dialog == .firstRun(Self.card))
        #expect(rig.target("dialog:cancel") != nil, "the card's OK button")
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-first-run")
        // Its text, as the console draws it: each fact once.
        let text = Self.card.paragraphs.joined(separator: "\n")
        #expect(text.contains("This is rig-3fa2"))
        #expect(text.contains("Address: 192.168.1.23, fd00::23"))
        #expect(text.contains("[remote]"), "how to turn the phone remote on")
        #expect(text.contains("RIG partition"))
        var noNetwork = Self.card
        noNetwork.addresses = []
        #expect(noNetwork.paragraphs[1].hasPrefix("No network yet"))
        noNetwork.rigPartition = false
        #expect(noNetwork.paragraphs.joined().contains("RIG partition") == false)
    }

    @Test func theImagesMarkerShowsTheCardUntilOKAndThenNeverAgain() throws {
        let rig = try ConsoleHarness()
        let marker = rig.root.appendingPathComponent(FirstRunWelcome.markerName)
        // Without the image's marker (a package install, every other test): no card.
        #expect(FirstRunWelcome.start(stage: rig.app.stage, config: rig.app.config, configPath: "rig.toml",
                                      loop: rig.app.loop) == nil)
        try Data().write(to: marker)
        let welcome = try #require(FirstRunWelcome.start(stage: rig.app.stage, config: rig.app.config,
                                                         configPath: "/etc/rig/rig.toml", loop: rig.app.loop))
        rig.settle()
        guard case let .firstRun(shown)? = rig.state.dialog else {
            Issue.record("no first-run card: \(String(describing: rig.state.dialog))")
            return
        }
        #expect(shown.hostname == FirstRunWelcome.hostname())
        #expect(shown.addresses == FirstRunWelcome.addresses())
        #expect(shown.addresses.contains("127.0.0.1") == false)
        #expect(shown.configPath == "/etc/rig/rig.toml")
        #expect(rig.console.state.statusJSON["dialog"] == "first_run")
        // Keys for the screen below wait: the card is modal.
        rig.key("Down")
        #expect(rig.state.dialog == .firstRun(shown))
        rig.key("Enter")
        #expect(rig.state.dialog == nil)
        #expect(FileManager.default.fileExists(atPath: marker.path) == false, "answered: the marker is gone")
        withExtendedLifetime(welcome) {}
        #expect(FirstRunWelcome.start(stage: rig.app.stage, config: rig.app.config, configPath: "rig.toml",
                                      loop: rig.app.loop) == nil, "never again")
    }

    /// The kiosk opens the last script (and its screen) as it starts, after the card was
    /// asked for: found by the image's boot test, where the card never showed.
    @Test func theCardStaysWhenTheScreenChangesUnderIt() throws {
        let rig = try ConsoleHarness()
        rig.app.stage.handle(.firstRun(Self.card))
        rig.settle()
        rig.console.show(.library)
        rig.console.show(.prompter)
        rig.settle()
        #expect(rig.state.dialog == .firstRun(Self.card))
        #expect(rig.state.focus == "dialog:cancel")
    }

    @Test func aClickOnOKAnswersItToo() throws {
        let rig = try ConsoleHarness()
        let marker = rig.root.appendingPathComponent(FirstRunWelcome.markerName)
        try Data().write(to: marker)
        let welcome = FirstRunWelcome.start(stage: rig.app.stage, config: rig.app.config, configPath: "rig.toml",
                                            loop: rig.app.loop)
        rig.settle()
        rig.click("dialog:cancel")
        #expect(rig.state.dialog == nil)
        #expect(FileManager.default.fileExists(atPath: marker.path) == false)
        withExtendedLifetime(welcome) {}
    }
}
