import CFFmpeg

/// The narrated export for spoken challenges: the prepared voice mixed into the
/// recording's sound, room sound lowered to 12 % while it plays (50 ms fades), the
/// audio re-encoded, the video packets copied unchanged. The original is only read.
public enum NarratedExport {
    public static func export(from source: String, to destination: String, narration: [NarrationClip],
                              roomLevel: Double = 0.12, fadeSeconds: Double = 0.05,
                              settings: RecorderSettings = RecorderSettings()) throws(MediaError) -> ExportResult {
        guard roomLevel >= 0, roomLevel <= 1, fadeSeconds >= 0 else {
            throw .badInput("room level \(roomLevel) (0...1) and fade \(fadeSeconds) s (>= 0)")
        }
        let target = try ExportTarget(destination)
        do {
            let mix = NarrationMix(clips: narration, roomLevel: Float(roomLevel), fade: fadeSeconds)
            let result = try run(source, target, mix, settings)
            try target.commit()
            return result
        } catch {
            target.discard()
            throw error
        }
    }

    private static func run(_ source: String, _ target: ExportTarget, _ mix: NarrationMix,
                            _ settings: RecorderSettings) throws(MediaError) -> ExportResult {
        var decoded = try MediaReader(path: source).decodeAudio()
        let rate = decoded.sampleRate, channelCount = max(1, decoded.channels)
        // Decoded sound before time zero is the original encoder's priming; the new
        // encoder adds its own, so it is dropped rather than delayed twice.
        let priming = decoded.startTime < 0 ? min(decoded.frameCount, Int((-decoded.startTime * Double(rate)).rounded())) : 0
        decoded.startTime += Double(priming) / Double(rate)
        var channels = (0..<channelCount).map { c in
            stride(from: priming * channelCount + c, to: decoded.samples.count, by: channelCount).map { decoded.samples[$0] }
        }
        try mix.apply(to: &channels, rate: rate, startTime: decoded.startTime)

        let input = try InputContainer(path: source)
        guard let videoIndex = input.firstStream(of: AVMEDIA_TYPE_VIDEO), let videoIn = input.stream(videoIndex),
              let audioIn = input.firstStream(of: AVMEDIA_TYPE_AUDIO).flatMap({ input.stream($0) }) else {
            throw .noStream(path: source, kind: "video and audio")
        }
        let output = try OutputContainer(path: target.temporaryPath)
        let videoOut = try output.addCopiedStream(from: videoIn.pointee.codecpar, timeBase: videoIn.pointee.time_base)
        var audioSettings = settings
        audioSettings.audioSampleRate = rate
        if audioIn.pointee.codecpar.pointee.bit_rate > 0 { audioSettings.audioBitrate = Int(audioIn.pointee.codecpar.pointee.bit_rate) }
        let encoder = try AudioEncoder(input: AudioTrackFormat(sampleRate: rate, channels: channelCount), settings: audioSettings,
                                       globalHeader: output.wantsGlobalHeader, planarFloat: true)
        let audioOut = try output.addStream(for: encoder.context)
        try output.writeHeader(fragmentSeconds: settings.fragmentSeconds)
        encoder.start(atPTS: Int64((decoded.startTime * Double(rate)).rounded()))

        let write = { (packet: MediaPacket) throws(MediaError) in
            av_packet_rescale_ts(packet.pointer, encoder.context.pointer.pointee.time_base, audioOut.pointee.time_base)
            packet.pointer.pointee.stream_index = audioOut.pointee.index
            try output.write(packet)
        }
        let total = channels.first?.count ?? 0
        // Stable pointers for the encoder: the mixed sound in one buffer per channel.
        let planes: [UnsafeMutablePointer<Float>] = channels.map { samples in
            let plane = UnsafeMutablePointer<Float>.allocate(capacity: max(1, samples.count))
            plane.initialize(from: samples, count: samples.count)
            return plane
        }
        defer { planes.forEach { $0.deallocate() } }
        var encoded = 0
        func encodeAudio(until end: Int) throws(MediaError) {
            let end = min(end, total)
            guard end > encoded else { return }
            try encoder.encode(planes: planes.map { UnsafePointer($0 + encoded) }, count: end - encoded, emit: write)
            encoded = end
        }

        var result = ExportResult(path: target.path, videoFrames: 0, badgedFrames: 0, copiedPackets: 0, audioSamples: Int64(total))
        let packet = try MediaPacket()
        let videoTimeBase = av_q2d(videoIn.pointee.time_base)
        while input.read(into: packet) {
            if packet.streamIndex == videoIndex {
                // Sound encoded half a second ahead of the video keeps the file interleaved.
                let dts = packet.pointer.pointee.dts == FFCode.noPTS ? 0 : packet.pointer.pointee.dts
                let time = Double(dts) * videoTimeBase + 0.5
                try encodeAudio(until: Int(((time - decoded.startTime) * Double(rate)).rounded()))
                av_packet_rescale_ts(packet.pointer, videoIn.pointee.time_base, videoOut.pointee.time_base)
                packet.pointer.pointee.stream_index = videoOut.pointee.index
                packet.pointer.pointee.pos = -1
                try output.write(packet)
                result.copiedPackets += 1
                result.videoFrames += 1
            }
            packet.unref()
        }
        if let error = input.readError { throw error }
        try encodeAudio(until: total)
        try encoder.flush(emit: write)
        try output.writeTrailer()
        try output.output.sync()
        return result
    }
}
