import Foundation
import Media
import Stage

/// The game's speech port on the rig: espeak-ng on the speech thread (the clip resampled
/// there to the output's rate, so its duration is exact before Send's attempt plays it),
/// ALSA playback through `AudioService`, the DAC times of its first and last sample
/// reported back on the loop.
final class KioskGameSpeech: GameSpeechPort {
    /// Game generations sit far above `rig ctl speak`'s, so cancelling one never stops the other.
    static let generationBase = 1 << 40

    private let audio: AudioService
    private let mailbox: LoopMailbox
    private var clips: [UInt64: SpeechClip] = [:]
    /// Hears each clip as it starts to play: the recording keeps it for the narrated export.
    var onPlay: ((UInt64, SpeechClip) -> Void)?

    init(audio: AudioService, mailbox: LoopMailbox) {
        self.audio = audio
        self.mailbox = mailbox
    }

    var unavailableReason: String? {
        guard audio.playback != nil else { return "no sound output is configured ([audio] output is empty)" }
        if case .unavailable(let reason)? = audio.outputState { return "sound output unavailable: \(reason)" }
        return nil
    }

    func prepare(_ text: String, wordsPerMinute: Int, generation: UInt64,
                 done: @escaping (Result<Double, GameSpeechFailure>) -> Void) {
        if case .unavailable(let reason)? = audio.outputState {
            return done(.failure(GameSpeechFailure("sound output unavailable: \(reason)")))
        }
        let handle = LoopBound(self)
        let done = LoopCarried(done)
        let deviceRate = audio.playback?.settings.rate
        let mailbox = mailbox
        SpeechSynthesizer.shared.synthesize(text, voice: audio.config.voice, rate: wordsPerMinute) { result in
            let prepared = result.map { clip in deviceRate.flatMap { try? clip.resampled(to: $0) } ?? clip }
            mailbox.post { handle.value?.prepared(prepared, generation: generation, done: done.value) }
        }
    }

    private func prepared(_ result: Result<SpeechClip, SpeechError>, generation: UInt64,
                              done: (Result<Double, GameSpeechFailure>) -> Void) {
        switch result {
        case let .success(clip):
            clips[generation] = clip
            done(.success(clip.duration))
        case let .failure(error):
            done(.failure(GameSpeechFailure(error.description)))
        }
    }

    func play(generation: UInt64, report: @escaping (GameSpeechReport) -> Void) {
        guard let clip = clips.removeValue(forKey: generation) else {
            return report(.failed(GameSpeechFailure("the instruction was not prepared")))
        }
        onPlay?(generation, clip)
        audio.play(clip, generation: Self.generationBase + Int(generation)) { result in
            switch result {
            case let .started(_, time): report(.started(time: time))
            case let .ended(_, time): report(.ended(time: time))
            case let .failed(_, reason): report(.failed(GameSpeechFailure(reason)))
            }
        }
    }

    func cancel(generation: UInt64) {
        clips[generation] = nil
        audio.cancel(generation: Self.generationBase + Int(generation))
    }
}
