import Foundation
@testable import Media

/// Test pictures and sounds whose content says where and when they came from: a bar
/// that moves one step per frame (which frame this is) and a bright square only in the
/// top-left corner (a mirrored picture has it top-right).
enum SyntheticMedia {
    static let width = 320
    static let height = 240
    static let background: UInt8 = 40
    static let bright: UInt8 = 220
    /// The marker: top-left, 48 px square from (16, 16).
    static let marker = (x: 16, y: 16, size: 48)

    /// For tests that append far faster than real time: a queue long enough that an
    /// encoder slowed by a busy machine drops nothing (pressure has its own test).
    static var unhurried: RecorderSettings {
        var settings = RecorderSettings()
        settings.queueLimit = 10_000
        return settings
    }

    /// Where frame `index`'s bar starts (8 px wide, rows 120 and below).
    static func barX(_ index: Int) -> Int { 80 + (index % 28) * 8 }

    static func luma(x: Int, y: Int, frame index: Int) -> UInt8 {
        if x >= marker.x, x < marker.x + marker.size, y >= marker.y, y < marker.y + marker.size { return bright }
        let bar = barX(index)
        if y >= 120, x >= bar, x < bar + 8 { return bright }
        return background
    }

    static func yuyvFrame(_ index: Int, timestamp: Double, width: Int = width, height: Int = height) -> RecorderVideoFrame {
        var bytes = [UInt8](repeating: 128, count: width * height * 2)
        for y in 0..<height {
            for x in 0..<width { bytes[(y * width + x) * 2] = luma(x: x, y: y, frame: index) }
        }
        return RecorderVideoFrame(format: .yuyv, width: width, height: height, bytesPerLine: width * 2,
                                  timestamp: timestamp, bytes: RecordedBytes(bytes))
    }

    /// A frame of noise: compresses badly, fills a disk quickly.
    static func noiseFrame(timestamp: Double, width: Int = width, height: Int = height,
                           generator: inout SystemRandomNumberGenerator) -> RecorderVideoFrame {
        var words = [UInt64](repeating: 0, count: width * height / 4)
        for i in words.indices { words[i] = generator.next() }
        let bytes = words.withUnsafeBytes { [UInt8]($0) }
        return RecorderVideoFrame(format: .yuyv, width: width, height: height, bytesPerLine: width * 2,
                                  timestamp: timestamp, bytes: RecordedBytes(bytes))
    }

    /// Mono s16 sine chunk starting at sample `start`.
    static func tone(frequency: Double, amplitude: Double, rate: Int, start: Int, count: Int) -> [Int16] {
        (0..<count).map { i in
            Int16((amplitude * 32767 * sin(2 * .pi * frequency * Double(start + i) / Double(rate))).rounded())
        }
    }

    /// Which frame a decoded picture shows, from its bar (nil if no bar is found).
    static func frameIndex(of frame: DecodedVideoFrame) -> Int? {
        let row = 180
        for x in 0..<frame.width where frame.pixels[row * frame.width + x] > 130 {
            return (x - 80) / 8
        }
        return nil
    }

    /// Mean luma of a square.
    static func meanLuma(_ frame: DecodedVideoFrame, x: Int, y: Int, size: Int) -> Double {
        var sum = 0
        for row in y..<(y + size) { for column in x..<(x + size) { sum += Int(frame.pixels[row * frame.width + column]) } }
        return Double(sum) / Double(size * size)
    }

    /// Amplitude of `frequency` in `samples[range]` (one channel), by correlation.
    static func amplitude(of frequency: Double, in samples: [Float], rate: Int, range: Range<Int>) -> Double {
        var re = 0.0, im = 0.0
        for i in range {
            let phase = 2 * .pi * frequency * Double(i) / Double(rate)
            re += Double(samples[i]) * cos(phase)
            im += Double(samples[i]) * sin(phase)
        }
        return 2 * (re * re + im * im).squareRoot() / Double(range.count)
    }
}

/// A fresh folder under /tmp, removed when the value goes away.
final class ScratchFolder {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "rig-media-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    func file(_ name: String) -> String { path + "/" + name }
}

/// Polls `condition` until it holds or `seconds` pass.
func waitUntil(seconds: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}
