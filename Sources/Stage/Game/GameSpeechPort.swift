/// How the game's instruction reaches the loudspeaker. The kiosk implements it with
/// espeak-ng and its ALSA output (`KioskGameSpeech`); headless tests with a fake that
/// reports on the manual clock. Every callback runs on the event-loop thread.
package protocol GameSpeechPort: AnyObject {
    /// Why no instruction can be spoken now (no sound output, the card unplugged); nil
    /// when one can. Send is refused while it is set, so no attempt is void for it.
    var unavailableReason: String? { get }
    /// Synthesizes `text`; `done` gets the clip's exact duration in seconds, or why not.
    func prepare(_ text: String, wordsPerMinute: Int, generation: UInt64,
                 done: @escaping (Result<Double, GameSpeechFailure>) -> Void)
    /// Plays the clip prepared for `generation`; `report` hears its first and last
    /// sample leave the DAC (CLOCK_MONOTONIC), or a failure.
    func play(generation: UInt64, report: @escaping (GameSpeechReport) -> Void)
    /// Stops and forgets everything of `generation` (an abandoned attempt).
    func cancel(generation: UInt64)
}

extension GameSpeechPort {
    package var unavailableReason: String? { nil }
}

package enum GameSpeechReport: Equatable {
    case started(time: Double)
    case ended(time: Double)
    case failed(GameSpeechFailure)
}

package struct GameSpeechFailure: Error, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// A stage without sound (`rig snapshot`, a kiosk that opened no sound device): every
/// instruction fails with the reason, so the attempt is void and says why.
package final class SilentGameSpeech: GameSpeechPort {
    let reason: String
    package init(reason: String = "there is no sound output in this kiosk") { self.reason = reason }

    package var unavailableReason: String? { reason }

    package func prepare(_ text: String, wordsPerMinute: Int, generation: UInt64,
                         done: @escaping (Result<Double, GameSpeechFailure>) -> Void) {
        done(.failure(GameSpeechFailure(reason)))
    }

    package func play(generation: UInt64, report: @escaping (GameSpeechReport) -> Void) {
        report(.failed(GameSpeechFailure(reason)))
    }

    package func cancel(generation: UInt64) {}
}
