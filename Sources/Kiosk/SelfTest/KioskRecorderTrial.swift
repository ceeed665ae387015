import Foundation
import Glibc
import Media
import Stage

/// The self-test's trial encode: rig's own recorder (libx264 at a preset, fragmented
/// MP4) fed in real time with frames of the camera's format, size and rate, on a thread
/// of its own as the capture thread feeds a take. The frames are a moving pattern made
/// here, never the camera's pictures, so nothing of the room is recorded; the file is
/// deleted once measured.
enum KioskRecorderTrial {
    /// Distinct frames cycled through: x264's cost depends on what moves.
    static let patterns = 4

    /// Runs the configured preset, then faster ones (at most two more) until one keeps up.
    static func run(format: VideoTrackFormat, framesPerSecond fps: Double, settings: RecorderSettings,
                    folder: String, seconds: Double) -> RecorderCheck {
        let trialFolder = folder + "/.selftest-trial-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: trialFolder) }
        do {
            try FileManager.default.createDirectory(atPath: trialFolder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            return RecorderCheck(failure: "cannot write in \(folder): \(error.localizedDescription)")
        }
        let frames = pattern(format)
        var trials: [RecorderTrial] = []
        var preset: String? = settings.preset
        while let current = preset, trials.count < 3 {
            do {
                let trial = try one(preset: current, format: format, fps: fps, settings: settings, frames: frames,
                                    folder: trialFolder, seconds: seconds)
                trials.append(trial)
                if trial.keptUp { break }
            } catch {
                if case .notEnoughSpace = error { return RecorderCheck(trials: trials, failure: "\(error)", spaceShort: true) }
                return RecorderCheck(trials: trials, failure: "\(error)")
            }
            preset = RecorderCheck.faster(than: current)
        }
        return RecorderCheck(trials: trials)
    }

    private static func one(preset: String, format: VideoTrackFormat, fps: Double, settings: RecorderSettings,
                            frames: [(RecordedBytes, Int)], folder: String, seconds: Double) throws(MediaError) -> RecorderTrial {
        var settings = settings
        settings.preset = preset
        settings.nominalFrameRate = max(1, Int(fps.rounded()))
        let start = MonotonicTime.now() + 0.05
        let recorder = try Recorder(folder: folder, name: "trial-\(preset)", video: format, audio: nil, origin: start,
                                    settings: settings)
        let count = max(1, Int(seconds * fps))
        let cpuBefore = cpuSeconds()
        for n in 0..<count {
            let due = start + Double(n) / fps
            let wait = due - MonotonicTime.now()
            if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
            let (bytes, bytesPerLine) = frames[n % frames.count]
            recorder.append(RecorderVideoFrame(format: format.format, width: format.width, height: format.height,
                                               bytesPerLine: bytesPerLine, timestamp: due, bytes: bytes))
        }
        let handedOver = MonotonicTime.now()
        let result = try recorder.finish()
        let finished = MonotonicTime.now()
        let cpu = cpuSeconds() - cpuBefore
        unlink(result.path)
        unlink(result.path.replacingOccurrences(of: ".mp4", with: ".json"))
        return RecorderTrial(preset: preset, width: format.width, height: format.height, framesPerSecond: fps,
                             offered: count, encoded: result.videoFrames,
                             dropped: max(result.droppedFrames, count - result.videoFrames),
                             finishSeconds: finished - handedOver, cpuPerSecond: cpu / max(0.001, finished - start))
    }

    /// `patterns` frames: a diagonal gradient that moves, with a little noise, as a
    /// camera's picture costs the encoder (flat colour would cost nothing, pure noise
    /// far more than any room).
    static func pattern(_ format: VideoTrackFormat) -> [(RecordedBytes, Int)] {
        let bytesPerLine: Int
        let rows: Int
        switch format.format {
        case .yuyv: bytesPerLine = format.width * 2; rows = format.height
        case .nv12: bytesPerLine = format.width; rows = format.height + (format.height + 1) / 2
        case .xrgb: bytesPerLine = format.width * 4; rows = format.height
        }
        var seed: UInt32 = 0x2545_f491
        return (0..<patterns).map { k in
            var bytes = [UInt8](repeating: 0, count: bytesPerLine * rows)
            bytes.withUnsafeMutableBufferPointer { buffer in
                for y in 0..<rows {
                    let row = y * bytesPerLine
                    for x in 0..<bytesPerLine {
                        seed = seed &* 1_664_525 &+ 1_013_904_223
                        buffer[row + x] = UInt8(truncatingIfNeeded: (x + y) / 4 + k * 6 + Int(seed >> 29))
                    }
                }
            }
            return (RecordedBytes(bytes), bytesPerLine)
        }
    }

    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
    }
}
