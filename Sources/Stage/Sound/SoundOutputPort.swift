/// The rig's sound output as the stage plays on it (a replay's sound, `rig ctl speak`).
/// The kiosk's port goes to ALSA through its playback thread and mixer; reports come
/// back on the stage's thread, with DAC times on CLOCK_MONOTONIC.
package protocol SoundOutputPort: AnyObject {
    /// The output's sample rate while it is configured; nil: no sound out in this rig.
    var sampleRate: Int? { get }
    /// Why nothing can play now (none configured, the card unplugged); nil when it can.
    var unavailableReason: String? { get }
    /// A generation id of the caller's own, for `cancel`.
    func newGeneration() -> Int
    /// A stream whose samples keep coming: `samples` now, then `append`, then `finish`.
    /// `slipped` hears the seconds it went on late after running dry. The stream's id.
    func stream(_ samples: [Int16], rate: Int, generation: Int, slipped: @escaping (Double) -> Void,
                report: @escaping (SoundReport) -> Void) -> Int?
    func append(_ samples: [Int16], rate: Int, to stream: Int)
    func finish(_ stream: Int)
    /// Stops every sound of `generation`.
    func cancel(generation: Int)
    /// Synthesizes `text` on the speech thread, then plays it.
    func speak(_ text: String, generation: Int, report: @escaping (SoundReport) -> Void)
}

/// How a sound went: its first sample at the DAC, its last, or why it did not play.
package enum SoundReport: Equatable, Sendable {
    case started(time: Double)
    case ended(time: Double)
    case failed(String)
}

/// A stage with no sound output: nothing plays, and `speak` says why.
package final class NoSoundOutput: SoundOutputPort {
    private let reason: String
    private var generation = 0
    package init(reason: String = "sound is off in this kiosk (headless)") { self.reason = reason }
    package var sampleRate: Int? { nil }
    package var unavailableReason: String? { reason }
    package func newGeneration() -> Int {
        generation += 1
        return generation
    }
    package func stream(_ samples: [Int16], rate: Int, generation: Int, slipped: @escaping (Double) -> Void,
                        report: @escaping (SoundReport) -> Void) -> Int? { nil }
    package func append(_ samples: [Int16], rate: Int, to stream: Int) {}
    package func finish(_ stream: Int) {}
    package func cancel(generation: Int) {}
    package func speak(_ text: String, generation: Int, report: @escaping (SoundReport) -> Void) {
        report(.failed(reason))
    }
}
