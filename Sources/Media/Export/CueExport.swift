import CFFmpeg

/// The Visual S/Z export: the recording with the cue badge drawn on exactly the
/// frames whose time lies in the cue interval. Video is decoded and re-encoded with
/// the recorder's settings (frames outside the interval get no drawing); the audio
/// packets are copied unchanged. The original file is only read.
public enum CueExport {
    public static func export(from source: String, to destination: String, cue: CueInterval, badge: OverlayPicture,
                              settings: RecorderSettings = RecorderSettings()) throws(MediaError) -> ExportResult {
        let target = try ExportTarget(destination)
        do {
            let result = try run(source, target, cue, badge, settings)
            try target.commit()
            return result
        } catch {
            target.discard()
            throw error
        }
    }

    private static func run(_ source: String, _ target: ExportTarget, _ cue: CueInterval, _ badge: OverlayPicture,
                            _ settings: RecorderSettings) throws(MediaError) -> ExportResult {
        let input = try InputContainer(path: source)
        guard let videoIndex = input.firstStream(of: AVMEDIA_TYPE_VIDEO), let videoIn = input.stream(videoIndex) else {
            throw .noStream(path: source, kind: "video")
        }
        let audioIndex = input.firstStream(of: AVMEDIA_TYPE_AUDIO)
        let timeBase = videoIn.pointee.time_base
        let decoder = try CodecContext.decoder(for: videoIn.pointee.codecpar, timeBase: timeBase)
        let width = Int(decoder.pointer.pointee.width), height = Int(decoder.pointer.pointee.height)

        let output = try OutputContainer(path: target.temporaryPath)
        let encoder = try VideoEncoder(width: width, height: height, camera: nil, timeBase: timeBase, settings: settings,
                                       globalHeader: output.wantsGlobalHeader)
        let videoOut = try output.addStream(for: encoder.context)
        var audioOut: UnsafeMutablePointer<AVStream>?
        if let audioIndex, let audioIn = input.stream(audioIndex) {
            audioOut = try output.addCopiedStream(from: audioIn.pointee.codecpar, timeBase: audioIn.pointee.time_base)
        }
        try output.writeHeader(fragmentSeconds: settings.fragmentSeconds)

        let overlay = YUVOverlay(badge)
        let packet = try MediaPacket()
        let frame = try MediaFrame()
        var converted: (PixelScaler, MediaFrame)?
        var result = ExportResult(path: target.path, videoFrames: 0, badgedFrames: 0, copiedPackets: 0, audioSamples: 0)
        let write = { (packet: MediaPacket) throws(MediaError) in
            av_packet_rescale_ts(packet.pointer, timeBase, videoOut.pointee.time_base)
            packet.pointer.pointee.stream_index = videoOut.pointee.index
            try output.write(packet)
        }
        func drainDecoder() throws(MediaError) {
            while try decoder.receive(into: frame) {
                var picture = frame
                if AVPixelFormat(rawValue: frame.pointer.pointee.format) != AV_PIX_FMT_YUV420P {
                    if converted == nil {
                        converted = (try PixelScaler(width: width, height: height,
                                                     from: AVPixelFormat(rawValue: frame.pointer.pointee.format),
                                                     to: AV_PIX_FMT_YUV420P),
                                     try .video(width: width, height: height, format: AV_PIX_FMT_YUV420P))
                    }
                    if let (scaler, target) = converted {
                        try target.makeWritable()
                        scaler.convert(frame, into: target)
                        picture = target
                    }
                }
                let pts = frame.bestTimestamp ?? 0
                picture.pointer.pointee.pts = pts
                if cue.contains(Double(pts) * av_q2d(timeBase)) {
                    try picture.makeWritable()
                    overlay.draw(into: picture)
                    result.badgedFrames += 1
                }
                try encoder.encode(picture: picture, emit: write)
                result.videoFrames += 1
                frame.unref()
            }
        }
        while input.read(into: packet) {
            if packet.streamIndex == videoIndex {
                while !(try decoder.send(packet)) { try drainDecoder() }
                try drainDecoder()
            } else if packet.streamIndex == audioIndex, let audioOut, let audioIn = input.stream(packet.streamIndex) {
                // Remuxed as stored: same bytes, timestamps only rescaled.
                av_packet_rescale_ts(packet.pointer, audioIn.pointee.time_base, audioOut.pointee.time_base)
                packet.pointer.pointee.stream_index = audioOut.pointee.index
                packet.pointer.pointee.pos = -1
                try output.write(packet)
                result.copiedPackets += 1
            }
            packet.unref()
        }
        if let error = input.readError { throw error }
        try decoder.send(nil as MediaPacket?)
        try drainDecoder()
        try encoder.flush(emit: write)
        try output.writeTrailer()
        try output.output.sync()
        return result
    }
}
