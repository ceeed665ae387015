import Durable
import Foundation
import Render
import Stage

/// `rig camera-probe`: a hidden subcommand that exercises the real capture path (the
/// event loop, the capture thread, libv4l2, the converter) without displays. The
/// virtual-rig tests use it against vivid; an installer can use it on a real camera.
///
enum CameraProbeCommand: Command {
    static let name = "camera-probe"
    static let summary = "Test aid: capture from a camera through the real pipeline, without displays"
    static let help = """
        Usage: rig camera-probe --device PATH|BY-ID-NAME [--size WxH] [--fps N] [--frames N]
                                [--out MIRRORED.ppm] [--out-plain PLAIN.ppm] [--out-size WxH]
                                [--raw] [--watch-replug SECONDS] [--timeout SECONDS]
                                [--retry-seconds SECONDS]
               rig camera-probe --list

          Captures until N frames arrived (or, with --watch-replug, until the camera was
          lost and came back and N more frames arrived), prints the camera status and
          writes the last frame through the converter, mirrored and plain, as PPM.
          --retry-seconds sets the reopen retry (default 2; udev events reopen at once).
          --list prints the cameras as `rig devices` will. (`rig bench --case camera` times
          the 1080p conversion.)
        """

    struct Options {
        var settings = CameraSettings(device: "")
        var frames = 30
        var mirroredOut: String?
        var plainOut: String?
        var outSize: (Int, Int)?
        var watchReplug: Double?
        var timeout = 20.0
        var list = false
    }

    static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32 {
        let options = try parse(&arguments)
        if options.list {
            CameraList.describe(CameraList.cameras()).forEach { Log.stdout($0) }
            return 0
        }
        do {
            return try capture(options)
        } catch {
            throw .failed("\(error)")
        }
    }

    static func parse(_ arguments: inout Arguments) throws(CLIError) -> Options {
        var options = Options()
        func number(_ flag: String) throws(CLIError) -> Double? {
            guard let text = try arguments.option(flag) else { return nil }
            guard let number = Double(text), number > 0 else { throw .usage("\(flag) \(text): not a positive number") }
            return number
        }
        func size(_ flag: String) throws(CLIError) -> (Int, Int)? {
            guard let text = try arguments.option(flag) else { return nil }
            let parts = text.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw .usage("\(flag) \(text): expected WIDTHxHEIGHT") }
            return (parts[0], parts[1])
        }
        options.settings.device = try arguments.option("--device") ?? ""
        if let (width, height) = try size("--size") {
            options.settings.preferredWidth = width
            options.settings.preferredHeight = height
        }
        if let fps = try number("--fps") { options.settings.preferredFramesPerSecond = fps }
        if let frames = try number("--frames") { options.frames = Int(frames) }
        options.mirroredOut = try arguments.option("--out")
        options.plainOut = try arguments.option("--out-plain")
        options.outSize = try size("--out-size")
        if arguments.flag("--raw") { options.settings.delivery = .raw }
        options.watchReplug = try number("--watch-replug")
        if let timeout = try number("--timeout") { options.timeout = timeout }
        if let retry = try number("--retry-seconds") { options.settings.retryInterval = retry }
        options.list = arguments.flag("--list")
        try arguments.finish()
        if !options.list && options.settings.device.isEmpty {
            throw .usage("--device is required")
        }
        return options
    }

    /// Runs the real loop until enough frames arrived (or, with --watch-replug, until
    /// the camera went away and came back), then writes the last frame.
    private static func capture(_ options: Options) throws -> Int32 {
        let loop = try EventLoop()
        let feed = try CameraFeed(settings: options.settings, mailbox: loop.mailbox, log: { KioskLog.info($0) })
        var phase = ReplugPhase.waitingForStream
        var framesSinceStream = 0
        feed.onStateChange = { state in
            Log.stdout("state \(state)")
            phase = phase.next(state)
            framesSinceStream = 0
        }
        feed.onFrame = { [unowned feed] frame, _ in
            framesSinceStream += 1
            // No display here: "presented" when the loop has it, so latency is capture -> loop.
            feed.presented(frame, flipTime: loop.clock())
        }
        feed.start()
        let deadline = loop.clock() + (options.watchReplug ?? options.timeout)
        let done = { () -> Bool in
            framesSinceStream >= options.frames && (options.watchReplug == nil ? phase != .waitingForStream : phase == .recovered)
        }
        while !done() && loop.clock() < deadline { loop.runOnce(timeout: 0.25) }
        let status = feed.status
        let frame = feed.latestFrame
        feed.stop()
        status.fields.forEach { Log.stdout("\($0.key) \($0.value)") }
        guard done(), let frame else {
            Log.stdout("camera-probe: gave up after \(Int(options.watchReplug ?? options.timeout)) s (\(phase))")
            return 1
        }
        let size = options.outSize ?? (frame.width, frame.height)
        if let path = options.mirroredOut { try write(frame, mirrored: true, size: size, to: path) }
        if let path = options.plainOut { try write(frame, mirrored: false, size: size, to: path) }
        Log.stdout("camera-probe: ok, \(frame.width)x\(frame.height) \(frame.format) frame \(frame.sequence)")
        return 0
    }

    private enum ReplugPhase {
        case waitingForStream, streaming, lost, recovered
        func next(_ state: CameraState) -> ReplugPhase {
            switch (self, state) {
            case (.waitingForStream, .streaming): .streaming
            case (.streaming, .unavailable): .lost
            case (.lost, .streaming): .recovered
            default: self
            }
        }
    }

    /// The frame through the converter into a WxH canvas, written as binary PPM.
    private static func write(_ frame: CameraFrame, mirrored: Bool, size: (Int, Int), to path: String) throws {
        let (width, height) = size
        var pixels = [UInt32](repeating: 0, count: width * height)
        try pixels.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            let region = try XRGBRegion(base: base, bytesPerRow: width * 4, width: width, height: height)
            try CameraFrameConverter().draw(try frame.image(), into: region, mirrored: mirrored)
        }
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        data.reserveCapacity(data.count + width * height * 3)
        for pixel in pixels {
            data.append(UInt8((pixel >> 16) & 0xFF))
            data.append(UInt8((pixel >> 8) & 0xFF))
            data.append(UInt8(pixel & 0xFF))
        }
        // A camera picture (of people, as likely as not): 0600 whatever the umask.
        try AtomicFile.write(data, to: URL(fileURLWithPath: path), access: .ownerOnly)
    }
}
