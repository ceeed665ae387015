import CFFmpeg

/// Why a clip could not be converted to the device's rate.
public enum ResamplerError: Error, Equatable, Sendable, CustomStringConvertible {
    case unsupportedRate(Int)
    case setupFailed(Int32)
    case conversionFailed(Int32)

    public var description: String {
        switch self {
        case let .unsupportedRate(rate): "cannot resample to or from \(rate) Hz (8000-192000 Hz)"
        case let .setupFailed(code): "libswresample could not be set up (error \(code))"
        case let .conversionFailed(code): "libswresample failed converting (error \(code))"
        }
    }
}

/// Mono 16-bit PCM from one rate to another with libswresample (espeak-ng's 22050 Hz
/// to the output's 48000 Hz: both ends of a device run at one rate). Converts whole
/// clips: the output has exactly round(n * to / from) samples, so the duration is
/// kept to within one output sample. Owns its SwrContext; deinit frees it.
public final class Resampler {
    public let inputRate: Int
    public let outputRate: Int
    private var context: OpaquePointer?

    public init(from inputRate: Int, to outputRate: Int) throws(ResamplerError) {
        for rate in [inputRate, outputRate] where !(8000...192_000).contains(rate) {
            throw .unsupportedRate(rate)
        }
        self.inputRate = inputRate
        self.outputRate = outputRate
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, 1)
        var inLayout = outLayout
        var made: OpaquePointer?
        let status = swr_alloc_set_opts2(&made, &outLayout, AV_SAMPLE_FMT_S16, Int32(outputRate),
                                         &inLayout, AV_SAMPLE_FMT_S16, Int32(inputRate), 0, nil)
        guard status >= 0, let made else { throw .setupFailed(status) }
        let initialized = swr_init(made)
        guard initialized >= 0 else {
            var doomed: OpaquePointer? = made
            swr_free(&doomed)
            throw .setupFailed(initialized)
        }
        context = made
    }

    deinit { swr_free(&context) }

    /// Samples of a whole clip at `outputRate`, the resampler's delay flushed out.
    public static func outputCount(inputCount: Int, from: Int, to: Int) -> Int {
        (inputCount * to + from / 2) / from
    }

    public func convert(_ input: [Int16]) throws(ResamplerError) -> [Int16] {
        let wanted = Self.outputCount(inputCount: input.count, from: inputRate, to: outputRate)
        // Room for the converted input plus the flushed tail.
        let capacity = wanted + 256 + Int(swr_get_out_samples(context, Int32(input.count)))
        var output = [Int16](repeating: 0, count: capacity)
        var produced = 0
        let status: Int32 = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                guard let targetBase = target.baseAddress else { return -1 }
                var inPlane: UnsafePointer<UInt8>? = source.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
                var outPlane: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(targetBase).assumingMemoryBound(to: UInt8.self)
                let converted = swr_convert(context, &outPlane, Int32(capacity), &inPlane, Int32(input.count))
                if converted < 0 { return converted }
                produced = Int(converted)
                // A null input flushes what the filter still holds.
                var flushPlane: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(targetBase + produced)
                    .assumingMemoryBound(to: UInt8.self)
                let flushed = swr_convert(context, &flushPlane, Int32(capacity - produced), nil, 0)
                if flushed < 0 { return flushed }
                produced += Int(flushed)
                return 0
            }
        }
        guard status >= 0 else { throw .conversionFailed(status) }
        // Exactly the clip's duration: trim the filter's tail or pad a sample of rounding.
        if produced >= wanted {
            output.removeSubrange(wanted...)
        } else {
            output.removeSubrange(produced...)
            output += [Int16](repeating: 0, count: wanted - produced)
        }
        return output
    }

    /// One piece of a continuous stream (the microphone): nothing flushed, so the filter
    /// carries over between pieces and the joins stay clean; what it holds back comes
    /// out with the next piece.
    public func convertPiece(_ input: [Int16]) throws(ResamplerError) -> [Int16] {
        let capacity = Int(swr_get_out_samples(context, Int32(input.count))) + 16
        var output = [Int16](repeating: 0, count: capacity)
        let converted: Int32 = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                guard let targetBase = target.baseAddress else { return -1 }
                var inPlane: UnsafePointer<UInt8>? = source.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
                var outPlane: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(targetBase).assumingMemoryBound(to: UInt8.self)
                return swr_convert(context, &outPlane, Int32(capacity), &inPlane, Int32(input.count))
            }
        }
        guard converted >= 0 else { throw .conversionFailed(converted) }
        output.removeSubrange(Int(converted)...)
        return output
    }

    /// The end of a stream fed with `convertPiece`: what the filter still holds.
    public func flushPieces() throws(ResamplerError) -> [Int16] {
        var output = [Int16](repeating: 0, count: 512)
        let flushed: Int32 = output.withUnsafeMutableBufferPointer { target in
            guard let targetBase = target.baseAddress else { return -1 }
            var outPlane: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(targetBase).assumingMemoryBound(to: UInt8.self)
            return swr_convert(context, &outPlane, Int32(target.count), nil, 0)
        }
        guard flushed >= 0 else { throw .conversionFailed(flushed) }
        output.removeSubrange(Int(flushed)...)
        return output
    }
}
