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

/// The file mapped read-only: frames are borrowed from the page cache, no copy, the
/// way ffmpeg reads them with read(2) into its buffers.
final class RawFrames: @unchecked Sendable {
    let base: UnsafeRawPointer
    let count: Int
    init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0,
              let map = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else { return nil }
        base = UnsafeRawPointer(map)
        count = Int(info.st_size)
    }
    deinit { munmap(UnsafeMutableRawPointer(mutating: base), count) }
}
guard let frames = RawFrames(path: arguments[1]), frames.count >= frameBytes else {
    FileHandle.standardError.write(Data("rig-record-bench: cannot read frames from \(arguments[1])\n".utf8))
    exit(1)
}
let frameCount = frames.count / frameBytes

var settings = RecorderSettings()
settings.preset = arguments[5]
settings.quality = .constantQuality(crf)
settings.nominalFrameRate = fps
// Throughput, not real time: every frame is queued, none is dropped.
settings.queueLimit = frameCount
settings.minimumFreeBytes = 64 * 1_048_576
do {
    let started = Date()
    let recorder = try Recorder(folder: arguments[7], name: "bench", video: VideoTrackFormat(format: .yuyv, width: width, height: height),
                                audio: nil, origin: 0, settings: settings)
    for i in 0..<frameCount {
        let bytes = RecordedBytes(borrowing: frames.base + i * frameBytes, count: frameBytes, owner: frames)
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
