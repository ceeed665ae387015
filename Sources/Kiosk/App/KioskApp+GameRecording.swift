import Foundation
import Stage

/// Game attempts recorded by the same service as prompter takes: the port goes in
/// place of the stage's `UnavailableGameRecording`, hears the service's pumps and the
/// instruction as it plays, and picks up derived exports a restart cut short. With
/// `[recording] enabled = false` the port says so among the game's readiness reasons.
extension KioskApp {
    func startGameRecording(_ recording: RecordingService) {
        let loop = loop
        let port = KioskGameRecording(service: recording, clock: loop.clock, schedule: { loop.addTimer(at: $0, $1) })
        port.game = stage.game
        port.voice = config.audio.voice
        port.videoFormat = { [weak self] in self?.cameraVideoFormat }
        port.cameraState = { [weak self] in self?.camera.map { "\($0.state)" } ?? "off" }
        recording.onPumped = { [weak port] take in port?.pumped(take: take) }
        (stage.game.speech as? KioskGameSpeech)?.onPlay = { [weak port] generation, clip in
            port?.played(generation: generation, clip: clip)
        }
        stage.game.recording = port
        gameRecording = port
        port.resumePendingExports()
    }
}
