import Foundation
import Game
import Render
import Testing
@testable import Stage

/// The camera's identity on the stage: a recorded attempt is interrupted as "replaced"
/// when another camera streams in the same place, as "lost" when the camera only goes
/// away, and goes on when the same camera comes back before anything was asked of it.
@Suite struct CameraIdentityTests {
    /// A recorder that is always ready and keeps nothing (the game's rules are what is tested).
    final class ReadyRecording: GameRecordingPort {
        var unavailableReason: String? { nil }
        func start(generation: UInt64, attempt: Int) {}
        func stop(generation: UInt64) {}
        func cancel(generation: UInt64) {}
        func discard(attempt: Int) {}
        func delete(attempt: Int, file: String) {}
    }

    static let cameraA = "Logitech BRIO | usb-0000:00:14.0-1 | usb-046d_Logitech_BRIO_A1B2C3D4-video-index0"
    static let cameraB = "Logitech BRIO | usb-0000:00:14.0-1 | usb-046d_Logitech_BRIO_FFEE0099-video-index0"

    private func streaming(_ identity: String?) -> StageEvent {
        .camera(CameraInput(frame: nil, message: nil, state: identity == nil ? "unavailable: gone" : "streaming",
                            live: true, identity: identity))
    }

    /// A recorded spoken attempt under way with camera A streaming.
    private func recordedAttempt() throws -> GameRig {
        let rig = try GameRig.recordedGame(recording: ReadyRecording(), camera: Self.cameraA)
        let sent = rig.ctl("send")
        #expect(sent.ok, "\(sent.error ?? "")")
        rig.run(for: 0.05)
        #expect(rig.phase != "ready" && rig.phase != "interrupted", "\(rig.phase ?? "none")")
        return rig
    }

    @Test func anotherCameraInThePlaceOfTheFirstInterruptsAsReplaced() throws {
        let rig = try recordedAttempt()
        rig.stage.handle(streaming(Self.cameraB))
        #expect(rig.phase == "interrupted")
        #expect(rig.status["attempts"]?.arrayValue?.last?["interruption"]?.stringValue
            == "The camera was replaced — check the framing")
    }

    @Test func theCameraGoingAwayIsLostNotReplaced() throws {
        let rig = try recordedAttempt()
        rig.stage.handle(streaming(nil))
        #expect(rig.phase == "interrupted")
        #expect(rig.status["attempts"]?.arrayValue?.last?["interruption"]?.stringValue
            == InterruptionReason.cameraLost.description)
    }
}
