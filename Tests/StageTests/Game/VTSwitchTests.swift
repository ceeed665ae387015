import Foundation
import Game
import Testing
@testable import Stage

/// A VT switch voids a running attempt with its own reason, said before the displays
/// go, so the lost display that follows does not rename it.
@Suite struct VTSwitchTests {
    @Test func aVTSwitchMidAttemptIsItsOwnReason() throws {
        let rig = try GameRig()
        #expect(rig.ctl("setup", ["players": "Ann,Bo", "response": "2", "recording": "off"]).ok)
        rig.ctl("open")
        rig.run(for: 0.1)
        #expect(rig.ctl("select", ["card": "poses.star", "rule": "simon"]).ok)
        #expect(rig.ctl("send").ok)
        rig.run(for: 0.05)
        rig.stage.handle(.switchedAway)
        rig.stage.handle(.display(.outer, DisplayStatus(connector: "outer", available: false)))
        #expect(rig.phase == "interrupted")
        #expect(rig.status["attempts"]?.arrayValue?.last?["interruption"]?.stringValue == "The console was switched away")
        #expect(rig.status["allowed"]?.arrayValue?.contains(.string("retry")) == true)
    }

    @Test func aVTSwitchBetweenAttemptsChangesNothing() throws {
        let rig = try GameRig()
        #expect(rig.ctl("setup", ["players": "Ann,Bo", "recording": "off"]).ok)
        rig.ctl("open")
        rig.stage.handle(.switchedAway)
        #expect(rig.phase == "ready")
        #expect(rig.game.session?.attempts.isEmpty == true)
    }
}
