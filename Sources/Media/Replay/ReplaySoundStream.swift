import CFFmpeg

/// A clip's sound for replay, decoded a piece at a time: `next()` gives the next piece
/// (one AAC frame, about 21 ms at 48 kHz) mixed down to mono 16-bit and resampled to
/// the output's rate, stamped on the clip's timeline. The stamps run on from the
/// first piece by the samples handed out, so the pieces join without gap or overlap
/// whatever the resampler holds back (it is flushed into the last piece).
final class ReplaySoundStream {
    private let stream: DecodedStream
    let sampleRate: Int
    private let resampler: Resampler?
    private var startTime: Double?
    private var handedOut = 0
    private var finished = false

    /// Nil for a clip without sound.
    static func open(_ path: String, rate: Int?) throws(MediaError) -> ReplaySoundStream? {
        let probe = try InputContainer(path: path)
        guard probe.firstStream(of: AVMEDIA_TYPE_AUDIO) != nil else { return nil }
        return try ReplaySoundStream(path: path, rate: rate)
    }

    private init(path: String, rate: Int?) throws(MediaError) {
        stream = try DecodedStream(path: path, type: AVMEDIA_TYPE_AUDIO, kind: "audio")
        let fileRate = Int(stream.decoder.pointer.pointee.sample_rate)
        // Unresampled when resampling cannot be set up: the wrong pitch rather than silence.
        if let rate, rate != fileRate, let made = try? Resampler(from: fileRate, to: rate) {
            resampler = made
            sampleRate = rate
        } else {
            resampler = nil
            sampleRate = fileRate
        }
    }

    /// The next piece, nil once the sound is over.
    func next() throws(MediaError) -> ReplaySound? {
        while !finished {
            guard try stream.next() else {
                finished = true
                let tail = (try? resampler?.flushPieces()) ?? []
                return tail.isEmpty ? nil : stamp(tail)
            }
            if startTime == nil { startTime = stream.time(preferPTS: true) }
            let mono = Self.mono(stream.frame)
            guard let resampler else { return stamp(mono) }
            let converted: [Int16]
            do {
                converted = try resampler.convertPiece(mono)
            } catch {
                throw .badInput("the replay's sound could not be resampled: \(error)")
            }
            if !converted.isEmpty { return stamp(converted) }
        }
        return nil
    }

    private func stamp(_ samples: [Int16]) -> ReplaySound {
        let start = (startTime ?? 0) + Double(handedOut) / Double(sampleRate)
        handedOut += samples.count
        return ReplaySound(sampleRate: sampleRate, startTime: start, samples: samples)
    }

    /// The frame's channels averaged into 16-bit mono.
    static func mono(_ frame: MediaFrame) -> [Int16] {
        var interleaved: [Float] = []
        MediaReader.appendSamples(of: frame, to: &interleaved)
        let channels = max(1, frame.channelCount)
        return (0..<(interleaved.count / channels)).map { index in
            var sum: Float = 0
            for channel in 0..<channels { sum += interleaved[index * channels + channel] }
            return Int16(max(-32768, min(32767, (sum / Float(channels) * 32767).rounded())))
        }
    }
}
