import Foundation
import Render

/// `rig camera-probe`: a hidden subcommand that exercises the real capture path (the
/// event loop, the capture thread, libv4l2, the converter) without displays. The
/// virtual-rig tests use it against vivid; an installer can use it on a real camera.
///
///   rig camera-probe --device /dev/video0 [--size 640x360] [--fps 30] [--frames 30]
///                    [--out mirrored.ppm] [--out-plain plain.ppm] [--out-size 1920x1080]
///                    [--watch-replug SECONDS] [--timeout SECONDS]
///   rig camera-probe --list
///   rig camera-probe --bench FRAMES
enum CameraProbeCommand {
    struct Options {
        var settings = CameraSettings(device: "")
        var frames = 30
        var mirroredOut: String?
        var plainOut: String?
        var outSize: (Int, Int)?
        var watchReplug: Double?
        var timeout = 20.0
        var list = false
        var benchFrames: Int?
    }

    enum UsageError: Error, CustomStringConvertible {
        case bad(String)
        var description: String { if case let .bad(text) = self { "camera-probe: \(text)" } else { "" } }
    }

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let options = try parse(arguments)
            if options.list {
                CameraList.describe(CameraList.cameras()).forEach { print($0) }
                return 0
            }
            if let frames = options.benchFrames {
                let result = try CameraConversionBenchmark().run(frames: frames)
                print(result)
                return 0
            }
            return try capture(options)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return 2
        }
    }

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst() else { throw UsageError.bad("\(flag) needs a value") }
            return next
        }
        func number(_ flag: String) throws -> Double {
            let text = try value(flag)
            guard let number = Double(text), number > 0 else { throw UsageError.bad("\(flag) \(text): not a positive number") }
            return number
        }
        func size(_ flag: String) throws -> (Int, Int) {
            let text = try value(flag)
            let parts = text.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw UsageError.bad("\(flag) \(text): expected WIDTHxHEIGHT") }
            return (parts[0], parts[1])
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--device": options.settings.device = try value(flag)
            case "--size": (options.settings.preferredWidth, options.settings.preferredHeight) = try size(flag)
            case "--fps": options.settings.preferredFramesPerSecond = try number(flag)
            case "--frames": options.frames = Int(try number(flag))
            case "--out": options.mirroredOut = try value(flag)
            case "--out-plain": options.plainOut = try value(flag)
            case "--out-size": options.outSize = try size(flag)
            case "--raw": options.settings.delivery = .raw
            case "--watch-replug": options.watchReplug = try number(flag)
            case "--timeout": options.timeout = try number(flag)
            case "--list": options.list = true
            case "--bench": options.benchFrames = Int(try number(flag))
            default: throw UsageError.bad("unknown option \(flag)")
            }
        }
        if !options.list && options.benchFrames == nil && options.settings.device.isEmpty {
            throw UsageError.bad("--device is required")
        }
        return options
    }

    /// Runs the real loop until enough frames arrived (or, with --watch-replug, until
    /// the camera went away and came back), then writes the last frame.
    private static func capture(_ options: Options) throws -> Int32 {
        let loop = try EventLoop()
        let feed = try CameraFeed(settings: options.settings, mailbox: loop.mailbox)
        var phase = ReplugPhase.waitingForStream
        var framesSinceStream = 0
        feed.onStateChange = { state in
            print("state \(state)")
            phase = phase.next(state)
            framesSinceStream = 0
        }
        feed.onFrame = { [unowned feed] frame in
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
        status.fields.forEach { print("\($0.key) \($0.value)") }
        guard done(), let frame else {
            print("camera-probe: gave up after \(Int(options.watchReplug ?? options.timeout)) s (\(phase))")
            return 1
        }
        let size = options.outSize ?? (frame.width, frame.height)
        if let path = options.mirroredOut { try write(frame, mirrored: true, size: size, to: path) }
        if let path = options.plainOut { try write(frame, mirrored: false, size: size, to: path) }
        print("camera-probe: ok, \(frame.width)x\(frame.height) \(frame.format) frame \(frame.sequence)")
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
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
