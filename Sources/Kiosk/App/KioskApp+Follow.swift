import Foundation
import Stage

/// Voice follow's ears wired to the stage: the room microphone's capture ring (or a WAV
/// file) through `KioskListening`, its hearings back as stage events.
extension KioskApp {
    func startFollow() {
        let listening = KioskListening(loop: loop, folder: URL(fileURLWithPath: config.state.dir).appendingPathComponent("follow"))
        listening.captureRing = audio?.captureRing
        listening.ready = { [weak self] words in self?.stage.handle(.followListening(words)) }
        listening.heard = { [weak self] result in self?.stage.handle(.followHeard(result)) }
        stage.follow.listening = listening
    }
}
