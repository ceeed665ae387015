import CLinux
import Foundation
import Kiosk
import Media
import Render
import Stage
import Synchronization

/// Issue 20's figure: a prompter take at full load, as the kiosk runs it, on this
/// machine's cores and in real time. A camera thread hands over 1920x1080 YUYV frames
/// at 30 fps (copied into pooled memory, as the capture thread copies V4L2's buffers),
/// each to the recorder (rig's Recorder through the RecordingTap: libx264 veryfast,
/// CRF 23, fragmented MP4) and to the preview thread (CameraPreviewConverter: XRGB
/// and a mirrored 1920x1080 preview, giving way to the recorder under pressure); the
/// bench's own thread is the event loop: it composes the outer prompter frame
/// (1920x1080, 60 px text, mirrored, scrolling) at every 60 Hz deadline and places
/// each new preview picture into an inner-sized frame.
///
/// Figures: whether it keeps up (no frame dropped by the recorder, its queue drained
/// soon after the last frame, the loop's 60 Hz deadlines met), frames dropped by the
/// recorder and skipped by the preview (separately), and the process's CPU seconds
/// per second (1.0 is one whole core), with the threads' shares.
enum RecordingLoadBench {
    static let width = 1920, height = 1080, cameraFPS = 30.0, displayHz = 60.0
    /// Distinct source frames cycled through (a moving pattern; x264's cost depends on it).
    static let patterns = 15

    struct Figures: Sendable {
        var seconds: Double
        var framesOffered: Int
        var framesEncoded: Int
        var recorderDropped: Int
        var previewSkippedForRecording: Int
        var previewReplaced: Int
        var previewConverted: Int
        var previewShown: Int
        var outerFrames: Int
        var outerLate: Int
        /// From the last frame handed over to the file closed: the encoder's backlog.
        var finishSeconds: Double
        var cpuSeconds: Double
        var threads: [(name: String, cpuSeconds: Double)]
        var cpuPerSecond: Double { cpuSeconds / seconds }
        var keptUp: Bool { recorderDropped == 0 && finishSeconds < 1.0 }
    }

    enum Failure: Error, CustomStringConvertible {
        case setUp(String)
        var description: String { if case let .setUp(why) = self { why } else { "" } }
    }

    static func measure(seconds: Double, text: String) -> Result<Figures, Failure> {
        do {
            return .success(try run(seconds: seconds, text: text))
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(.setUp("\(error)"))
        }
    }

    private static func run(seconds: Double, text: String) throws -> Figures {
        let fonts = try ProducerBenches.fonts().get()
        let outer = try OuterFrameBench(display: .fullHD, text: text, sizePx: 60,
                                        transform: .init(mirror: true, flip: false, rotation: 0), fonts: fonts)
        outer.scrollToMiddle()
        let inner = try Canvas(size: PixelSize(width: width, height: height))
        let sources = makeSources()
        defer { sources.forEach { $0.deallocate() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-bench-load-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        var settings = RecorderSettings()
        settings.minimumFreeBytes = 64 * 1_048_576
        let start = MonotonicTime.now() + 0.2
        let recorder = try Recorder(folder: folder, name: "load", video: VideoTrackFormat(format: .yuyv, width: width,
                                                                                          height: height),
                                    audio: nil, origin: start, settings: settings)
        let tap = RecordingTap()
        tap.attach(recorder)
        let latest = Mutex<(frame: CameraFrame, preview: CameraPreviewPicture?)?>(nil)
        let replaced = Atomic<Int>(0)
        let converter = try CameraPreviewConverter(recorderQueue: { tap.videoQueue }) { frame, preview in
            let older = latest.withLock { slot in
                defer { slot = (frame, preview) }
                return slot
            }
            if older != nil { replaced.add(1, ordering: .relaxed) }
        }
        converter.setTarget(PreviewTarget(size: PixelSize(width: width, height: height), mirrored: true))
        converter.start()

        let frames = Int(seconds * cameraFPS)
        let camera = CameraSource(sources: sources, width: width, height: height, start: start, fps: cameraFPS,
                                  frames: frames) { frame in
            tap.offer(frame)
            converter.offer(frame)
        }
        let cpuBefore = processCPUSeconds()
        let threadsBefore = Dictionary(ThreadCPU.seconds().map { ($0.task, $0.seconds) }, uniquingKeysWith: { $1 })
        camera.start()

        // The loop: 60 Hz deadlines from `start`, each one outer frame; a frame done
        // after the next deadline is late, and the deadlines it missed are skipped.
        let compositor = Compositor()
        var outerFrames = 0, late = 0, shown = 0
        var lastShown: UInt32?
        var deadline = start
        let end = start + Double(frames) / cameraFPS
        while deadline < end {
            sleep(until: deadline)
            outer.composeFrame()
            outer.advance()
            outerFrames += 1
            if let picture = latest.withLock({ $0 }), picture.frame.sequence != lastShown {
                converter.pictureTaken()
                lastShown = picture.frame.sequence
                if let preview = picture.preview {
                    compositor.compose([.image(preview.canvas, x: 0, y: 0)], into: inner)
                    shown += 1
                }
            }
            let next = deadline + 1 / displayHz
            let now = MonotonicTime.now()
            if now > next {
                late += 1
                deadline = next + ((now - next) * displayHz).rounded(.down) / displayHz + 1 / displayHz
            } else {
                deadline = next
            }
        }
        camera.wait()
        let threads = threadCPUSeconds(since: threadsBefore)
        let handedOver = MonotonicTime.now()
        tap.attach(nil)
        let result = try recorder.finish()
        let finishSeconds = MonotonicTime.now() - handedOver
        let cpu = processCPUSeconds() - cpuBefore
        converter.stop()
        let counts = converter.counts
        return Figures(seconds: MonotonicTime.now() - start, framesOffered: frames, framesEncoded: result.videoFrames,
                       recorderDropped: result.droppedFrames, previewSkippedForRecording: counts.skippedForRecording,
                       previewReplaced: counts.replaced + replaced.load(ordering: .relaxed),
                       previewConverted: counts.converted, previewShown: shown, outerFrames: outerFrames,
                       outerLate: late, finishSeconds: finishSeconds, cpuSeconds: cpu, threads: threads)
    }

    /// YUYV frames of a detailed pattern that moves from frame to frame.
    private static func makeSources() -> [UnsafeMutableRawPointer] {
        (0..<patterns).map { index in
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: width * height * 2, alignment: 64)
            let row = bytes.assumingMemoryBound(to: UInt8.self)
            for y in 0..<height {
                for x in 0..<width {
                    let moved = x + index * 12
                    let luma = (moved ^ (y * 3)) & 0xff
                    let chroma = x & 1 == 0 ? (moved / 8 + y / 4) & 0xff : (y / 2 + index * 5) & 0xff
                    row[(y * width + x) * 2] = UInt8(16 + luma * 219 / 255)
                    row[(y * width + x) * 2 + 1] = UInt8(chroma)
                }
            }
            return bytes
        }
    }

    private static func sleep(until time: Double) {
        var spec = timespec(tv_sec: Int(time), tv_nsec: Int((time - Double(Int(time))) * 1e9))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
    }

    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// CPU seconds of the process's live threads by name (/proc/self/task/*/stat)
    /// since `before` (each thread's seconds then, by task id): the loop (the main
    /// thread), the threads rig names (`rig-preview`, the bench's camera), and the rest
    /// summed as one (the recorder's thread, x264's workers). Without `before`, the
    /// main thread's figure held every case the full bench ran before this one.
    private static func threadCPUSeconds(since before: [String: Double]) -> [(name: String, cpuSeconds: Double)] {
        var byName: [String: Double] = [:]
        for thread in ThreadCPU.seconds() {
            let name = thread.name.hasPrefix("rig-") ? thread.name
                : thread.name == "main" ? "loop (bench thread)" : "recorder, x264 and other threads"
            byName[name, default: 0] += thread.seconds - (before[thread.task] ?? 0)
        }
        return byName.sorted { $0.value > $1.value }.map { ($0.key, $0.value) }
    }

    static func lines(_ result: Result<Figures, Failure>) -> [String] {
        var out = ["## Recording load: prompter at 60 Hz, preview at 30 fps, recorder 1080p30 from YUYV", ""]
        switch result {
        case let .failure(failure):
            out.append("unavailable: \(failure)")
        case let .success(f):
            out.append(String(format: "%.1f s; camera 1920x1080 YUYV at 30 fps; x264 veryfast CRF 23; outer 1920x1080 "
                              + "prompter, 60 px, mirrored", f.seconds))
            out.append("")
            out.append("| measure | value | goal |")
            out.append("| --- | --- | --- |")
            out.append("| real time (recorder dropped none, file closed within 1 s of the last frame) | "
                       + (f.keptUp ? "yes" : "no") + " | yes |")
            out.append("| frames offered / encoded | \(f.framesOffered) / \(f.framesEncoded) | equal |")
            out.append("| frames dropped by the recorder | \(f.recorderDropped) | 0 |")
            out.append("| preview frames skipped for the recorder | \(f.previewSkippedForRecording) | - |")
            out.append("| preview frames replaced before conversion or display | \(f.previewReplaced) | - |")
            out.append("| preview pictures converted / placed by the loop | \(f.previewConverted) / \(f.previewShown) | - |")
            out.append("| outer prompter frames / late for their 60 Hz deadline | \(f.outerFrames) / \(f.outerLate) | - / 0 |")
            out.append(String(format: "| encoder backlog after the last frame | %.2f s | < 1 s |", f.finishSeconds))
            out.append(String(format: "| CPU seconds per second (1.0 = one core), whole process | %.2f | - |",
                              f.cpuPerSecond))
            for thread in f.threads {
                out.append(String(format: "| … of which %@ | %.2f | - |", thread.name, thread.cpuSeconds / f.seconds))
            }
        }
        return out
    }
}

/// The bench's camera: a thread handing over one frame every 1/fps s, copied from the
/// source patterns into pooled memory as the capture thread copies V4L2's buffers.
private final class CameraSource: @unchecked Sendable {
    // @unchecked: the sources are only read, by the one thread started here.
    private let sources: [UnsafeMutableRawPointer]
    private let width: Int, height: Int, first: Double, fps: Double, frames: Int
    private let deliver: @Sendable (CameraFrame) -> Void
    private let pool = CameraFramePool(keep: 8)
    private let done = DispatchSemaphore(value: 0)

    init(sources: [UnsafeMutableRawPointer], width: Int, height: Int, start: Double, fps: Double, frames: Int,
         deliver: @escaping @Sendable (CameraFrame) -> Void) {
        self.sources = sources
        self.width = width
        self.height = height
        first = start
        self.fps = fps
        self.frames = frames
        self.deliver = deliver
    }

    func start() {
        let thread = Thread { [self] in
            _ = rig_name_this_thread("rig-bench-cam")
            for index in 0..<frames {
                let time = first + Double(index) / fps
                var spec = timespec(tv_sec: Int(time), tv_nsec: Int((time - Double(Int(time))) * 1e9))
                while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
                let bytes = width * height * 2
                let memory = pool.take(bytes: bytes)
                memory.start.copyMemory(from: sources[index % sources.count], byteCount: bytes)
                deliver(CameraFrame(format: .yuyv, width: width, height: height, bytesPerLine: width * 2,
                                    sequence: UInt32(index), timestamp: time, memory: memory, pool: pool))
            }
            done.signal()
        }
        thread.name = "rig-bench-camera"
        thread.start()
    }

    func wait() { done.wait() }
}

extension RecordingLoadBench {
    static func json(_ result: Result<Figures, Failure>?) -> BenchJSON {
        switch result {
        case nil: return .null
        case let .failure(failure): return .object([("status", .string("unavailable")), ("reason", .string(failure.description))])
        case let .success(f):
            return .object([
                ("status", .string("ok")), ("seconds", .number(f.seconds)), ("real_time", .bool(f.keptUp)),
                ("frames_offered", .int(f.framesOffered)), ("frames_encoded", .int(f.framesEncoded)),
                ("recorder_dropped", .int(f.recorderDropped)),
                ("preview_skipped_for_recording", .int(f.previewSkippedForRecording)),
                ("preview_replaced", .int(f.previewReplaced)), ("preview_converted", .int(f.previewConverted)),
                ("preview_shown", .int(f.previewShown)), ("outer_frames", .int(f.outerFrames)),
                ("outer_late", .int(f.outerLate)), ("encoder_backlog_s", .number(f.finishSeconds)),
                ("cpu_seconds_per_second", .number(f.cpuPerSecond)),
                ("threads", .object(f.threads.map { ($0.name, .number($0.cpuSeconds / f.seconds)) })),
            ])
        }
    }
}
