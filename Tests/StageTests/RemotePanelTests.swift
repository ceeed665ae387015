import Foundation
import Prompter
import Render
import Testing
@testable import Stage

/// The network remote's panel on the console's Settings screen, on a stage with a port
/// that records what it was asked: Pair a phone and Revoke are the rig's one vocabulary
/// (`remote pair`, `remote revoke ID`), a pairing done elsewhere redraws the console,
/// and with the remote off there is no panel.
@Suite struct RemotePanelTests {
    final class RecordingAccess: RemoteAccessPort {
        var asked: [String] = []
        var shown = RemoteAccessShown(pairingAddress: nil, pairingExpires: nil,
                                      devices: [.init(id: "a1b2c3d4", name: "Ann's phone", paired: Date(timeIntervalSince1970: 0))],
                                      apiKeys: [.init(name: "companion", fingerprint: "0f0f0f0f")])

        func request(action: String, id: String?) -> ControlReply {
            asked.append([action, id].compactMap { $0 }.joined(separator: " "))
            if action == "pair" { shown.pairingAddress = "http://10.0.0.2:8080/pair?code=c0de" }
            return .success()
        }
    }

    @Test func pairAndRevokeAreButtonsOfTheSettingsScreen() throws {
        let rig = try GameRig(fonts: try FontLibrary(), innerSize: PixelSize(width: 960, height: 540))
        rig.stage.console.show(.settings)
        rig.drawInner(at: rig.now)
        #expect(rig.stage.console.targets[RemotePanel.pairID] == nil, "a panel with the remote off")
        #expect(rig.stage.handle(.remote(action: "pair", id: nil)).body["ok"]?.boolValue == false)

        let access = RecordingAccess()
        rig.stage.remoteAccess = access
        rig.stage.handle(.remoteAccessChanged)
        rig.run(for: 0.1)
        let before = Array(rig.inner.pixels)
        rig.click(RemotePanel.pairID)
        #expect(access.asked == ["pair"])
        rig.stage.handle(.remoteAccessChanged)
        rig.drawInner(at: rig.now + 0.02)
        // The address is drawn: the frame changed where the panel is.
        #expect(Array(rig.inner.pixels) != before)
        rig.click(RemotePanel.revokePrefix + "a1b2c3d4")
        #expect(access.asked == ["pair", "revoke a1b2c3d4"])
    }
}

/// The hand controllers' panel on the Settings screen: each one's map and where it sits,
/// and "Try the maps", while which a controller moves no text.
@Suite struct ControllersPanelTests {
    @Test func theMapsAreShownAndTriedWithTheTextStill() throws {
        let rig = try GameRig(fonts: try FontLibrary(), innerSize: PixelSize(width: 960, height: 540))
        rig.stage.console.show(.settings)
        rig.drawInner(at: rig.now)
        #expect(rig.stage.console.targets[ControllersPanel.testID] == nil, "a panel with no controller")
        let ring = ControllerReading(id: "event7", name: "Contour Design ShuttleXpress", kind: .shuttle,
                                     axis: "ring -7…7", map: "steps 15 30 50 75 110 160 240 px/s, reverse ≤ 160 px/s")
        rig.stage.handle(.controller(.added(ring)))
        rig.run(for: 0.1)
        let before = Array(rig.inner.pixels)
        rig.click(ControllersPanel.testID)
        #expect(rig.stage.handControllers.testing)
        var moved = ring
        (moved.raw, moved.travel, moved.speed) = (4, 0.54, 75)
        rig.stage.handle(.controller(.moved(moved, time: rig.now)))
        rig.run(for: 0.1)
        // The gauge moved and the button lit: the frame changed; the text did not start.
        #expect(Array(rig.inner.pixels) != before)
        #expect(rig.stage.controller.engine.state != .playing)
        #expect(rig.stage.handControllers.shown.controllers.first?.speed == 75)
        // Trying over, the ring already off rest steers at once.
        rig.click(ControllersPanel.testID)
        #expect(!rig.stage.handControllers.testing)
        #expect(rig.stage.handControllers.steering == "event7")
    }
}
