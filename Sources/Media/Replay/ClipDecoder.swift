import CFFmpeg
import Foundation

/// Decodes a clip for replay on a thread of its own, so the loop and the displays
/// never wait for FFmpeg. The loop says how far into the clip it wants pictures
/// (`want(through:)`, the replay's position plus a short lead); the thread decodes
/// up to there and then waits, so memory stays at a few pictures whatever the
/// clip's length, and a paused replay decodes nothing. Finished pictures (and the
/// sound, decoded whole first) are collected with `take()` after `onReady` says so.
public final class ClipDecoder: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `condition`.
    /// What `take()` hands over since its last call.
    public struct Delivery: Sendable {
        public var pictures: [ReplayPicture] = []
        public var sound: ReplaySound?
        /// Every picture of the clip has been handed over.
        public var ended = false
        public var failure: MediaError?

        public init(pictures: [ReplayPicture] = [], sound: ReplaySound? = nil, ended: Bool = false,
                    failure: MediaError? = nil) {
            self.pictures = pictures
            self.sound = sound
            self.ended = ended
            self.failure = failure
        }
    }

    public let path: String
    private let condition = NSCondition()
    private var wanted = -Double.infinity
    private var delivery = Delivery()
    private var stopping = false
    private var running = true
    private var holding: Double?
    private let onReady: @Sendable () -> Void

    /// Starts decoding `path` (its sound too when `sound` is true, resampled to
    /// `soundRate` when given, on this thread rather than the loop). `onReady` runs on
    /// the decoder's thread whenever something can be taken.
    public init(path: String, sound: Bool, soundRate: Int? = nil, onReady: @escaping @Sendable () -> Void) {
        self.path = path
        self.onReady = onReady
        let thread = Thread { [self] in
            run(sound: sound, rate: soundRate)
            condition.lock()
            running = false
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "rig-replay-decoder"
        thread.start()
    }

    /// Pictures with times up to `time` (clip seconds) are wanted now.
    public func want(through time: Double) {
        condition.lock()
        defer { condition.unlock() }
        guard time > wanted else { return }
        wanted = time
        condition.broadcast()
    }

    public func take() -> Delivery {
        condition.lock()
        defer { condition.unlock() }
        let taken = delivery
        delivery = Delivery(pictures: [], sound: nil, ended: false, failure: nil)
        return taken
    }

    /// The time of the decoded picture the thread holds back until it is wanted; nil
    /// while it decodes (or before it starts). Tests wait for this instead of sleeping.
    public var holdingPictureAt: Double? {
        condition.lock()
        defer { condition.unlock() }
        return holding
    }

    /// Ends the thread soon; never waits for it (the loop calls this).
    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// For tests and shutdown: waits up to `seconds` for the thread to end.
    public func waitUntilStopped(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while running {
            if !condition.wait(until: deadline) { return !running }
        }
        return true
    }

    deinit { stop() }

    // MARK: the thread

    private func run(sound: Bool, rate: Int?) {
        do throws(MediaError) {
            if sound, let replaySound = try Self.decodeSound(path) {
                let prepared = Self.resampled(replaySound, to: rate)
                hand { $0.sound = prepared }
            }
            try decodePictures()
            // A stopped decoder did not reach the end.
            if !isStopping { hand { $0.ended = true } }
        } catch {
            hand { $0.failure = error }
        }
    }

    private func hand(_ change: (inout Delivery) -> Void) {
        condition.lock()
        change(&delivery)
        condition.unlock()
        onReady()
    }

    /// Waits until the picture at `time` is wanted; false when told to stop.
    private func waitUntilWanted(_ time: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !stopping && time > wanted {
            holding = time
            condition.wait()
        }
        holding = nil
        return !stopping
    }

    private var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    private func decodePictures() throws(MediaError) {
        let input = try InputContainer(path: path)
        guard let index = input.firstStream(of: AVMEDIA_TYPE_VIDEO), let stream = input.stream(index) else {
            throw .noStream(path: path, kind: "video")
        }
        let timeBase = stream.pointee.time_base
        let decoder = try CodecContext.decoder(for: stream.pointee.codecpar, timeBase: timeBase)
        let packet = try MediaPacket()
        let frame = try MediaFrame()
        var packer: PicturePacker?
        var count = 0
        var going = true
        func drain() throws(MediaError) {
            while going, try decoder.receive(into: frame) {
                defer { frame.unref() }
                let time = frame.bestTimestamp.map { Double($0) * av_q2d(timeBase) } ?? 0
                guard waitUntilWanted(time) else {
                    going = false
                    return
                }
                if packer?.matches(frame) != true { packer = try PicturePacker(for: frame) }
                guard let packer else { return }
                let picture = packer.pack(frame, time: time, index: count)
                count += 1
                hand { $0.pictures.append(picture) }
            }
        }
        while going, !isStopping, input.read(into: packet) {
            while packet.streamIndex == index, going, !(try decoder.send(packet)) { try drain() }
            packet.unref()
            try drain()
        }
        if going && !isStopping {
            try decoder.send(nil as MediaPacket?)
            try drain()
        }
    }

    /// The sound at `rate` (the output device's), unchanged when it is already or
    /// when resampling fails (it then plays at the wrong pitch rather than not at all).
    static func resampled(_ sound: ReplaySound, to rate: Int?) -> ReplaySound {
        guard let rate, rate != sound.sampleRate, let resampler = try? Resampler(from: sound.sampleRate, to: rate),
              let samples = try? resampler.convert(sound.samples) else { return sound }
        return ReplaySound(sampleRate: rate, startTime: sound.startTime, samples: samples)
    }

    /// The whole sound track, mixed down to mono 16-bit; nil for a clip without one.
    static func decodeSound(_ path: String) throws(MediaError) -> ReplaySound? {
        let reader = try MediaReader(path: path)
        guard reader.firstStream(.audio) != nil else { return nil }
        let audio = try reader.decodeAudio()
        let channels = max(1, audio.channels)
        var mono = [Int16](repeating: 0, count: audio.frameCount)
        for frame in 0..<audio.frameCount {
            var sum: Float = 0
            for channel in 0..<channels { sum += audio.samples[frame * channels + channel] }
            mono[frame] = Int16(max(-32768, min(32767, (sum / Float(channels) * 32767).rounded())))
        }
        return ReplaySound(sampleRate: audio.sampleRate, startTime: audio.startTime, samples: mono)
    }
}

/// Converts decoded pictures of one size and format into packed I420.
private final class PicturePacker {
    let width: Int
    let height: Int
    let format: Int32
    let scaler: PixelScaler
    let target: MediaFrame
    /// Even, so the chroma planes' half stride holds a whole chroma row.
    let bytesPerLine: Int

    init(for frame: MediaFrame) throws(MediaError) {
        width = frame.width
        height = frame.height
        format = frame.pointer.pointee.format
        scaler = try PixelScaler(width: width, height: height, from: AVPixelFormat(rawValue: format), to: AV_PIX_FMT_YUV420P)
        target = try MediaFrame.video(width: width, height: height, format: AV_PIX_FMT_YUV420P)
        bytesPerLine = (width + 1) & ~1
    }

    func matches(_ frame: MediaFrame) -> Bool {
        frame.width == width && frame.height == height && frame.pointer.pointee.format == format
    }

    func pack(_ frame: MediaFrame, time: Double, index: Int) -> ReplayPicture {
        scaler.convert(frame, into: target)
        let chromaRows = (height + 1) / 2
        let chromaLine = bytesPerLine / 2
        var bytes = [UInt8](repeating: 128, count: bytesPerLine * height + 2 * chromaLine * chromaRows)
        bytes.withUnsafeMutableBytes { out in
            guard let base = out.baseAddress else { return }
            func copy(plane: Int, rows: Int, rowBytes: Int, line: Int, offset: Int) {
                guard let source = target.plane(plane) else { return }
                let stride = target.lineSize(plane)
                for row in 0..<rows {
                    (base + offset + row * line).copyMemory(from: source + row * stride, byteCount: rowBytes)
                }
            }
            copy(plane: 0, rows: height, rowBytes: width, line: bytesPerLine, offset: 0)
            let chromaWidth = (width + 1) / 2
            copy(plane: 1, rows: chromaRows, rowBytes: chromaWidth, line: chromaLine, offset: bytesPerLine * height)
            copy(plane: 2, rows: chromaRows, rowBytes: chromaWidth, line: chromaLine,
                 offset: bytesPerLine * height + chromaLine * chromaRows)
        }
        return ReplayPicture(time: time, index: index, width: width, height: height, bytesPerLine: bytesPerLine,
                             bytes: bytes)
    }
}
