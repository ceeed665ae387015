import CFFmpeg

/// Prepared narration (speech synthesized ahead): mono float samples and where on
/// the recording's timeline the first one plays.
public struct NarrationClip: Sendable, Equatable {
    public var samples: [Float]
    public var sampleRate: Int
    /// Seconds on the recording's timeline.
    public var start: Double

    public init(samples: [Float], sampleRate: Int, start: Double) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.start = start
    }

    public var end: Double { start + Double(samples.count) / Double(max(1, sampleRate)) }
}

/// The narrated mix: room sound lowered to `roomLevel` while narration plays, with
/// linear fades of `fade` seconds outside each narration (so the voice is never over
/// full room sound), the narration added on top. Pure arithmetic on sample arrays.
struct NarrationMix {
    var clips: [NarrationClip]
    var roomLevel: Float
    var fade: Double

    /// The room's gain at `time`: the lowest any clip asks for.
    func roomGain(at time: Double) -> Float {
        var gain: Float = 1
        for clip in clips {
            let g: Float
            if time >= clip.start && time <= clip.end {
                g = roomLevel
            } else if time < clip.start && time > clip.start - fade {
                g = roomLevel + (1 - roomLevel) * Float((clip.start - time) / fade)
            } else if time > clip.end && time < clip.end + fade {
                g = roomLevel + (1 - roomLevel) * Float((time - clip.end) / fade)
            } else {
                g = 1
            }
            gain = min(gain, g)
        }
        return gain
    }

    /// Mixes into `channels` (one array per channel at `rate`, first sample at `startTime`).
    func apply(to channels: inout [[Float]], rate: Int, startTime: Double) throws(MediaError) {
        guard let count = channels.first?.count else { return }
        for i in 0..<count {
            let gain = roomGain(at: startTime + Double(i) / Double(rate))
            if gain != 1 { for c in channels.indices { channels[c][i] *= gain } }
        }
        for clip in clips {
            let voice = try Self.resample(clip.samples, from: clip.sampleRate, to: rate)
            let offset = Int(((clip.start - startTime) * Double(rate)).rounded())
            for (j, sample) in voice.enumerated() {
                let i = offset + j
                guard i >= 0, i < count else { continue }
                for c in channels.indices { channels[c][i] = max(-1, min(1, channels[c][i] + sample)) }
            }
        }
    }

    /// Mono float from one rate to another with libswresample.
    static func resample(_ samples: [Float], from inputRate: Int, to outputRate: Int) throws(MediaError) -> [Float] {
        guard inputRate != outputRate, !samples.isEmpty else { return samples }
        var mono = AVChannelLayout()
        av_channel_layout_default(&mono, 1)
        let converter = try SampleConverter(from: AV_SAMPLE_FMT_FLT, rate: inputRate, layout: mono,
                                            to: AV_SAMPLE_FMT_FLT, rate: outputRate, layout: mono)
        var output: [Float] = []
        let input = UnsafeMutablePointer<Float>.allocate(capacity: samples.count)
        defer { input.deallocate() }
        input.initialize(from: samples, count: samples.count)
        for pass in 0..<2 {
            // The second pass drains what the filter still holds.
            let count = pass == 0 ? samples.count : 0
            let capacity = converter.outputCapacity(forInput: count)
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
            defer { buffer.deallocate() }
            var planes: [UnsafeMutablePointer<UInt8>?] = [UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self)]
            let written = try converter.convert(input: [pass == 0 ? UnsafeRawPointer(input) : nil], count: count,
                                                output: &planes, capacity: capacity)
            output.append(contentsOf: UnsafeBufferPointer(start: buffer, count: written))
        }
        return output
    }
}
