import Foundation
import Stage
import Media

/// What `rig speak` prints: the clip, and when its sound started.
struct SpeakReport {
    let clip: SpeechClip
    var requested: Double
    /// Seconds espeak-ng took (0 for a clip already made in this process).
    let synthesisTime: Double
    var file: String?
    var device: String?
    var setup: ALSAPCM.Setup?
    var played: BlockingPlayer.Result?

    private func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

    var text: String {
        var lines = [String(format: "duration %.3f s (%d samples at %d Hz), %d words, voice %@, %d wpm",
                            clip.duration, clip.samples.count, clip.sampleRate, clip.words.count, clip.voice, clip.rate),
                     "synthesis " + ms(synthesisTime)]
        if let file { lines.append("wrote \(file)") }
        if let device, let played {
            if let setup { lines.append("device \(device): \(setup)") }
            if let handed = played.handedOver { lines.append("first sample handed to ALSA " + ms(handed - requested) + " after the request") }
            if let start = played.start {
                lines.append("start latency " + ms(start - requested) + " (first sample at the DAC)")
            }
            if let start = played.start, let end = played.end {
                lines.append(String(format: "played %.6f to %.6f (CLOCK_MONOTONIC), %.3f s", start, end, end - start))
            }
            if played.underruns > 0 { lines.append("underruns: \(played.underruns)") }
        }
        return lines.joined(separator: "\n")
    }

    var json: JSONValue {
        var fields: [String: JSONValue] = [
            "duration": .number(clip.duration),
            "samples": .int(clip.samples.count),
            "sample_rate": .int(clip.sampleRate),
            "voice": .string(clip.voice),
            "rate": .int(clip.rate),
            "text": .string(clip.text),
            "words": .array(clip.words.map {
                ["word": .string($0.word), "offset": .int($0.characterOffset), "sample": .int($0.samplePosition)]
            }),
            "synthesis_ms": .number(synthesisTime * 1000),
            "file": .optional(file),
            "device": .optional(device),
            "requested": .number(requested),
        ]
        if let played {
            fields["handed_over"] = played.handedOver.map { .number($0) } ?? .null
            fields["start"] = played.start.map { .number($0) } ?? .null
            fields["end"] = played.end.map { .number($0) } ?? .null
            fields["underruns"] = .int(played.underruns)
        }
        if let setup { fields["device_rate"] = .int(setup.rate); fields["device_channels"] = .int(setup.channels) }
        return .object(fields)
    }
}
