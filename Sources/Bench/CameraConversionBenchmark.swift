import Glibc
import Kiosk
import Stage
import Render

/// The per-frame cost of the game's camera preview, for `rig bench --case camera`:
/// one 1920x1080 YUYV frame (as a webcam sends it) converted, mirrored and aspect-fit
/// into a 1920x1080 x8r8g8b8 frame, with the cue badge blended on top. The GStreamer peer
/// (bench/gstreamer-camera.sh) does the same conversion and flip.
///
/// Wall-clock medians hide preemption on a busy machine; the mean CPU time per frame
/// (the thread's CPU clock) is what compares fairly with GStreamer's CPU time.
struct CameraConversionBenchmark {
    struct Result: Sendable, CustomStringConvertible {
        let source: String
        let frames: Int
        let medianMilliseconds: Double
        let meanMilliseconds: Double
        let minimumMilliseconds: Double
        let cpuMillisecondsPerFrame: Double

        var description: String {
            "camera \(source)->mirrored XRGB+badge: median \(format(medianMilliseconds)) ms, "
                + "mean \(format(meanMilliseconds)) ms, min \(format(minimumMilliseconds)) ms, "
                + "cpu \(format(cpuMillisecondsPerFrame)) ms/frame over \(frames) frames"
        }

        private func format(_ value: Double) -> String {
            let hundredths = Int((value * 1000).rounded())
            let fraction = hundredths % 1000
            return "\(hundredths / 1000).\(fraction < 10 ? "00" : fraction < 100 ? "0" : "")\(fraction)"
        }
    }

    let width: Int
    let height: Int
    let badgeSide: Int
    /// `.yuyv`: the frame as the camera sends it (the GStreamer-comparable case).
    /// `.xrgb`: already converted on the capture thread, so the loop only mirrors.
    let sourceFormat: CameraPixelFormat

    init(width: Int = 1920, height: Int = 1080, badgeSide: Int = 360, sourceFormat: CameraPixelFormat = .yuyv) {
        self.width = width
        self.height = height
        self.badgeSide = badgeSide
        self.sourceFormat = sourceFormat == .xrgb ? .xrgb : .yuyv
    }

    /// Times `frames` conversions after a few warm-up frames (page faults, caches).
    func run(frames: Int) throws(CameraFrameError) -> Result {
        let sourceBytesPerLine = width * 2
        let source = UnsafeMutableRawPointer.allocate(byteCount: sourceBytesPerLine * height, alignment: 64)
        let destinationBytesPerRow = width * 4
        let destination = UnsafeMutableRawPointer.allocate(byteCount: destinationBytesPerRow * height, alignment: 64)
        defer {
            source.deallocate()
            destination.deallocate()
        }
        fillColorBars(source, bytesPerLine: sourceBytesPerLine)
        let camera = try CameraImage(format: .yuyv, width: width, height: height, bytesPerLine: sourceBytesPerLine,
                                     base: source, byteCount: sourceBytesPerLine * height)
        let region = try XRGBRegion(base: destination, bytesPerRow: destinationBytesPerRow, width: width, height: height)
        let converter = CameraFrameConverter()
        let converted = UnsafeMutableRawPointer.allocate(byteCount: destinationBytesPerRow * height, alignment: 64)
        defer { converted.deallocate() }
        var image = camera
        if sourceFormat == .xrgb {
            let target = try XRGBRegion(base: converted, bytesPerRow: destinationBytesPerRow, width: width, height: height)
            try converter.draw(camera, into: target, mirrored: false)
            image = try CameraImage(format: .xrgb, width: width, height: height, bytesPerLine: destinationBytesPerRow,
                                    base: converted, byteCount: destinationBytesPerRow * height)
        }
        let badge = CameraOverlayBadge(side: badgeSide)
        let clock = ContinuousClock()
        var times: [Double] = []
        var cpuStart = 0.0
        for index in 0..<(frames + 5) {
            if index == 5 { cpuStart = Self.threadCPUSeconds() }
            let start = clock.now
            try converter.draw(image, into: region, mirrored: true)
            badge.blend(onto: region, x: (width - badge.width) / 2, y: (height - badge.height) / 2)
            let elapsed = clock.now - start
            if index >= 5 {
                let parts = elapsed.components
                times.append(Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15)
            }
        }
        let cpu = (Self.threadCPUSeconds() - cpuStart) * 1000 / Double(max(1, frames))
        let sorted = times.sorted()
        return Result(source: "\(width)x\(height) \(sourceFormat)", frames: frames, medianMilliseconds: sorted.isEmpty ? 0 : sorted[sorted.count / 2],
                      meanMilliseconds: sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count),
                      minimumMilliseconds: sorted.first ?? 0, cpuMillisecondsPerFrame: cpu)
    }

    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Eight vertical colour bars in YUYV, like a camera test pattern (set-up only).
    private func fillColorBars(_ memory: UnsafeMutableRawPointer, bytesPerLine: Int) {
        // BT.601 limited YUV of white, yellow, cyan, green, magenta, red, blue, black.
        let bars: [(UInt8, UInt8, UInt8)] = [(235, 128, 128), (210, 16, 146), (170, 166, 16), (145, 54, 34),
                                             (106, 202, 222), (81, 90, 240), (41, 240, 110), (16, 128, 128)]
        let bytes = memory.assumingMemoryBound(to: UInt8.self)
        for x in stride(from: 0, to: width, by: 2) {
            let (y, u, v) = bars[x * bars.count / width]
            for row in 0..<height {
                let at = row * bytesPerLine + x * 2
                bytes[at] = y; bytes[at + 1] = u; bytes[at + 2] = y; bytes[at + 3] = v
            }
        }
    }
}
