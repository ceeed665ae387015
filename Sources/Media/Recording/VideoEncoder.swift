import CFFmpeg

/// H.264 with libx264: converts each camera picture to YUV 4:2:0 (never mirrored) and
/// encodes it with microsecond timestamps, so the file keeps the camera's own timing.
final class VideoEncoder {
    static let timeBase = AVRational(num: 1, den: 1_000_000)

    let context: CodecContext
    let track: VideoTrackFormat
    private let scaler: PixelScaler?
    private let picture: MediaFrame
    private let packet: MediaPacket

    /// An encoder for camera frames of `track`'s size and layout.
    convenience init(track: VideoTrackFormat, settings: RecorderSettings, globalHeader: Bool) throws(MediaError) {
        try self.init(width: track.width, height: track.height, camera: track.format, timeBase: Self.timeBase,
                      settings: settings, globalHeader: globalHeader)
    }

    /// `camera` is the layout of frames given to `encode(_:pts:emit:)`; exports that
    /// hand over decoded YUV 4:2:0 pictures with `encode(picture:emit:)` pass nil.
    init(width: Int, height: Int, camera: RecordedPixelFormat?, timeBase: AVRational, settings: RecorderSettings,
         globalHeader: Bool) throws(MediaError) {
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
            throw .badInput("video size \(width)x\(height) must be positive and even")
        }
        track = VideoTrackFormat(format: camera ?? .nv12, width: width, height: height)
        context = try .encoder(named: "libx264")
        let c = context.pointer
        c.pointee.width = Int32(width)
        c.pointee.height = Int32(height)
        c.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        c.pointee.time_base = timeBase
        c.pointee.framerate = AVRational(num: Int32(max(1, settings.nominalFrameRate)), den: 1)
        c.pointee.gop_size = Int32(max(1, (Double(settings.nominalFrameRate) * settings.keyframeSeconds).rounded()))
        c.pointee.thread_count = Int32(settings.threads)
        // No B-frames: they make the first decode time negative, which a fragmented MP4
        // cannot store, so the muxer would shift the whole timeline by the reorder delay
        // and the file would no longer be on the camera's clock.
        c.pointee.max_b_frames = 0
        if globalHeader { c.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        try context.setOption("preset", settings.preset)
        switch settings.quality {
        case let .constantQuality(crf): try context.setOption("crf", String(crf))
        case let .bitrate(bits): c.pointee.bit_rate = Int64(bits)
        }
        try context.open()
        scaler = try camera.map { (format) throws(MediaError) in
            try PixelScaler(width: width, height: height, from: Self.pixelFormat(format), to: AV_PIX_FMT_YUV420P)
        }
        picture = try .video(width: width, height: height, format: AV_PIX_FMT_YUV420P)
        packet = try MediaPacket()
    }

    static func pixelFormat(_ format: RecordedPixelFormat) -> AVPixelFormat {
        switch format {
        case .yuyv: return AV_PIX_FMT_YUYV422
        case .nv12: return AV_PIX_FMT_NV12
        // x8r8g8b8 little endian is B, G, R, X in memory: FFmpeg's bgr0.
        case .xrgb: return AV_PIX_FMT_BGR0
        }
    }

    /// Converts and encodes one frame at `pts` microseconds; packets go to `emit`.
    func encode(_ frame: RecorderVideoFrame, pts: Int64,
                emit: (MediaPacket) throws(MediaError) -> Void) throws(MediaError) {
        guard let scaler else { throw .badInput("camera frame given to an encoder of decoded pictures") }
        try picture.makeWritable()
        let base = frame.bytes.base
        switch frame.format {
        case .yuyv, .xrgb:
            scaler.convert(planes: [base], strides: [frame.bytesPerLine], into: picture)
        case .nv12:
            scaler.convert(planes: [base, base + frame.bytesPerLine * frame.height],
                           strides: [frame.bytesPerLine, frame.bytesPerLine], into: picture)
        }
        picture.pointer.pointee.pts = pts
        try context.send(picture)
        try drain(emit)
    }

    /// Encodes a YUV 4:2:0 picture of the encoder's size, its pts in the encoder's time base.
    func encode(picture frame: MediaFrame, emit: (MediaPacket) throws(MediaError) -> Void) throws(MediaError) {
        // The decoder's frame type and flags are not the encoder's business.
        frame.pointer.pointee.pict_type = AV_PICTURE_TYPE_NONE
        try context.send(frame)
        try drain(emit)
    }

    /// Encodes what x264 still holds (its lookahead and B-frames).
    func flush(emit: (MediaPacket) throws(MediaError) -> Void) throws(MediaError) {
        try context.send(nil as MediaFrame?)
        try drain(emit)
    }

    private func drain(_ emit: (MediaPacket) throws(MediaError) -> Void) throws(MediaError) {
        while try context.receive(into: packet) {
            try emit(packet)
            packet.unref()
        }
    }
}
