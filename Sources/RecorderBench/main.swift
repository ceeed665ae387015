// The recorder's side of bench/recorder.sh: encodes raw YUYV frames from a file with
// rig's Recorder (the same thread, queue, conversion and x264 settings as on the rig)
// and prints one JSON line. The script times this process from outside, exactly as
// it times the ffmpeg command line on the same frames.
//   rig-record-bench RAW WIDTH HEIGHT FPS PRESET CRF OUTPUT_FOLDER
import Foundation
import Media

let arguments = CommandLine.arguments
guard arguments.count == 8, let width = Int(arguments[2]), let height = Int(arguments[3]),
      let fps = Int(arguments[4]), let crf = Double(arguments[6]) else {
    FileHandle.standardError.write(Data("usage: rig-record-bench RAW WIDTH HEIGHT FPS PRESET CRF OUTPUT_FOLDER\n".utf8))
    exit(2)
}
let frameBytes = width * height * 2

/// A few frame buffers reused the way the rig's camera pool reuses its memory: the
/// reader fills a free one with read(2) (as ffmpeg reads its input) and hands it to
/// the recorder; the recorder's release of the frame gives the buffer back.
final class FramePool: @unchecked Sendable {
    private var free: [UnsafeMutableRawPointer]
    private let lock = NSLock()
    private let available: DispatchSemaphore

    init(buffers: Int, bytes: Int) {
        free = (0..<buffers).map { _ in .allocate(byteCount: bytes, alignment: 64) }
        available = DispatchSemaphore(value: buffers)
    }

    func take() -> UnsafeMutableRawPointer {
        available.wait()
        lock.lock()
        defer { lock.unlock() }
        return free.removeLast()
    }

    func giveBack(_ buffer: UnsafeMutableRawPointer) {
        lock.lock()
        free.append(buffer)
        lock.unlock()
        available.signal()
    }
}

/// Owns one pooled buffer while the recorder holds the frame.
final class PooledFrame: @unchecked Sendable {
    let buffer: UnsafeMutableRawPointer
    let pool: FramePool
    init(_ buffer: UnsafeMutableRawPointer, _ pool: FramePool) {
        self.buffer = buffer
        self.pool = pool
    }
    deinit { pool.giveBack(buffer) }
}

let fd = open(arguments[1], O_RDONLY | O_CLOEXEC)
var info = stat()
guard fd >= 0, fstat(fd, &info) == 0, Int(info.st_size) >= frameBytes else {
    FileHandle.standardError.write(Data("rig-record-bench: cannot read frames from \(arguments[1])\n".utf8))
    exit(1)
}
let frameCount = Int(info.st_size) / frameBytes
let pool = FramePool(buffers: 8, bytes: frameBytes)

func readFrame(into buffer: UnsafeMutableRawPointer) -> Bool {
    var done = 0
    while done < frameBytes {
        let n = read(fd, buffer + done, frameBytes - done)
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { return false }
        done += n
    }
    return true
}

var settings = RecorderSettings()
settings.preset = arguments[5]
settings.quality = .constantQuality(crf)
settings.nominalFrameRate = fps
// Throughput, not real time: the pool, not the queue, bounds what waits; none is dropped.
settings.queueLimit = frameCount
settings.minimumFreeBytes = 64 * 1_048_576
do {
    let started = Date()
    let recorder = try Recorder(folder: arguments[7], name: "bench", video: VideoTrackFormat(format: .yuyv, width: width, height: height),
                                audio: nil, origin: 0, settings: settings)
    for i in 0..<frameCount {
        let buffer = pool.take()
        guard readFrame(into: buffer) else { break }
        let bytes = RecordedBytes(borrowing: buffer, count: frameBytes, owner: PooledFrame(buffer, pool))
        recorder.append(RecorderVideoFrame(format: .yuyv, width: width, height: height, bytesPerLine: width * 2,
                                           timestamp: Double(i) / Double(fps), bytes: bytes))
    }
    let result = try recorder.finish()
    let wall = Date().timeIntervalSince(started)
    print("{\"frames\": \(result.videoFrames), \"dropped\": \(result.droppedFrames), \"bytes\": \(result.bytes), "
        + "\"seconds_of_video\": \(Double(result.videoFrames) / Double(fps)), \"wall_seconds\": \(wall)}")
} catch {
    FileHandle.standardError.write(Data("rig-record-bench: \(error)\n".utf8))
    exit(1)
}
