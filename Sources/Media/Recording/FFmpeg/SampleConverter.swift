import CFFmpeg

/// Owns one SwrContext: converts sample format, rate and channel count.
final class SampleConverter {
    private let context: OpaquePointer
    let inputRate: Int
    let outputRate: Int

    init(from inputFormat: AVSampleFormat, rate inputRate: Int, layout inputLayout: AVChannelLayout,
         to outputFormat: AVSampleFormat, rate outputRate: Int, layout outputLayout: AVChannelLayout) throws(MediaError) {
        var context: OpaquePointer?
        var input = inputLayout
        var output = outputLayout
        try ffCheck(swr_alloc_set_opts2(&context, &output, outputFormat, Int32(outputRate),
                                        &input, inputFormat, Int32(inputRate), 0, nil), "set up audio conversion")
        guard let context else { throw .ffmpeg(step: "set up audio conversion", code: 0, message: "out of memory") }
        if swr_init(context) < 0 {
            var doomed: OpaquePointer? = context
            swr_free(&doomed)
            throw .badInput("no audio conversion from \(inputRate) Hz to \(outputRate) Hz")
        }
        self.context = context
        self.inputRate = inputRate
        self.outputRate = outputRate
    }

    deinit {
        var doomed: OpaquePointer? = context
        swr_free(&doomed)
    }

    /// Room needed for the output of `inputSamples` more input samples.
    func outputCapacity(forInput inputSamples: Int) -> Int {
        Int(swr_get_out_samples(context, Int32(inputSamples))) + 16
    }

    /// Converts `count` input samples (nil planes flush) into `output`; returns samples written.
    func convert(input: [UnsafeRawPointer?], count: Int,
                 output: UnsafePointer<UnsafeMutablePointer<UInt8>?>, capacity: Int) throws(MediaError) -> Int {
        var sources: [UnsafePointer<UInt8>?] = input.map { $0?.assumingMemoryBound(to: UInt8.self) }
        let written = sources.withUnsafeMutableBufferPointer { sourcePlanes -> Int32 in
            let base: UnsafeMutablePointer<UnsafePointer<UInt8>?>? = count > 0 ? sourcePlanes.baseAddress : nil
            let mutableOutput = UnsafeMutablePointer(mutating: output)
            return swr_convert(context, mutableOutput, Int32(capacity), base, Int32(count))
        }
        return Int(try ffCheck(written, "convert audio samples"))
    }
}
