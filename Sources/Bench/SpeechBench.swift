import CLinux
import Foundation
import Kiosk
import Stage
import Media

/// Speech figures: espeak-ng's synthesis speed for a 10-word instruction (seconds of
/// CPU per second of speech, and how many times faster than real time), and the time
/// from "speak" to the first sample handed to ALSA on the playback thread. That goes
/// to ALSA's `null` PCM, which every machine has, so the figure is the kiosk's own
/// path (synthesis, resampling to 48 kHz, the hand-over to the playback thread, the
/// mixer, the first write), not a sound card's.
enum SpeechBench {
    static let instruction = "Touch your nose with your left hand and then smile."
    static let device = "null"

    static func measure(runs: Int) -> BenchReport.Speech {
        let words = instruction.split(separator: " ").count
        let speech = SpeechSynthesizer.shared
        var duration = 0.0
        var synthesisMs: [Double] = []
        var cpuPerSecond: [Double] = []
        do {
            _ = try speech.synthesize(instruction, cached: false)  // espeak-ng's data loaded
            for _ in 0..<runs {
                let cpu = processCPUSeconds()
                let (clip, ms) = try BenchClock.onceMs { try speech.synthesize(instruction, cached: false) }
                let cpuSpent = processCPUSeconds() - cpu
                duration = clip.duration
                synthesisMs.append(ms)
                cpuPerSecond.append(cpuSpent / clip.duration)
            }
        } catch {
            return .init(instruction: instruction, words: words, duration: nil, synthesis: .unavailable("\(error)"),
                         cpuPerSpeechSecond: nil, speakToFirstSample: .unavailable("\(error)"), device: device)
        }
        return .init(instruction: instruction, words: words, duration: duration,
                     synthesis: BenchMeasurement(samplesMs: synthesisMs),
                     cpuPerSpeechSecond: cpuPerSecond.sorted()[cpuPerSecond.count / 2],
                     speakToFirstSample: speakToFirstSample(runs: runs), device: device)
    }

    /// Uncached synthesis each time, as for an instruction never spoken before.
    private static func speakToFirstSample(runs: Int) -> BenchMeasurement {
        do {
            let player = try BlockingPlayer(device: device)
            let setup = try player.open()
            var samples: [Double] = []
            for _ in 0..<runs {
                let requested = MonotonicTime.now()
                let clip = try SpeechSynthesizer.shared.synthesize(instruction, cached: false).resampled(to: setup.rate)
                let played = try player.play(PreparedSound(clip))
                guard let handed = played.handedOver else { return .unavailable("no hand-over time reported") }
                samples.append((handed - requested) * 1000)
            }
            return BenchMeasurement(samplesMs: samples)
        } catch {
            return .unavailable("ALSA \(device): \(error)")
        }
    }

    private static func processCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
