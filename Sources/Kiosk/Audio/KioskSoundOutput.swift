import Media
import Stage

/// The stage's sound output on the kiosk: the ALSA playback thread and its mixer
/// (`AudioService`), shared by speech and the replay's sound. Without an audio service
/// (headless, or both devices turned off) nothing plays and the reason says why.
final class KioskSoundOutput: SoundOutputPort {
    /// Set when the sound devices open; nil in a kiosk that opens none.
    var audio: AudioService?
    /// `[audio] output`: "" when the operator turned sound out off.
    private let configured: String
    private var generation = 0

    init(configured: String) { self.configured = configured }

    var sampleRate: Int? { audio?.playback?.settings.rate }

    var unavailableReason: String? {
        guard let audio else {
            return configured.isEmpty ? "no sound output configured ([audio] output is empty)"
                : "sound is off in this kiosk (headless)"
        }
        if case .unavailable(let reason)? = audio.outputState { return "sound output unavailable: \(reason)" }
        return nil
    }

    func newGeneration() -> Int {
        guard let audio else {
            generation += 1
            return generation
        }
        return audio.newGeneration()
    }

    func stream(_ samples: [Int16], rate: Int, generation: Int, slipped: @escaping (Double) -> Void,
                report: @escaping (SoundReport) -> Void) -> Int? {
        audio?.stream(PreparedSound(samples: samples, sampleRate: rate), generation: generation, slipped: slipped) {
            report(Self.report($0))
        }
    }

    func append(_ samples: [Int16], rate: Int, to stream: Int) {
        audio?.append(PreparedSound(samples: samples, sampleRate: rate), to: stream)
    }

    func finish(_ stream: Int) { audio?.finish(stream) }

    func cancel(generation: Int) { audio?.cancel(generation: generation) }

    func speak(_ text: String, generation: Int, report: @escaping (SoundReport) -> Void) {
        guard let audio else { return report(.failed(unavailableReason ?? "no sound output")) }
        audio.speak(text, generation: generation, report: { report(Self.report($0)) })
    }

    private static func report(_ report: AudioService.Report) -> SoundReport {
        switch report {
        case let .started(_, time): .started(time: time)
        case let .ended(_, time): .ended(time: time)
        case let .failed(_, reason): .failed(reason)
        }
    }
}
