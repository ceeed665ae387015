import Foundation
import Render
import Stage

/// One way a camera can stream: pixel format, size and frame rate, as enumerated
/// through libv4l2 (`emulated` when libv4l2 converts, e.g. MJPEG decoded to I420).
struct CameraMode: Sendable, Equatable, CustomStringConvertible {
    var format: CameraPixelFormat
    var width: Int
    var height: Int
    var framesPerSecond: Double
    var emulated = false

    var description: String {
        let fps = framesPerSecond.rounded() == framesPerSecond ? "\(Int(framesPerSecond))" : "\(framesPerSecond)"
        return "\(format) \(width)x\(height)@\(fps)\(emulated ? " (converted by libv4l2)" : "")"
    }
}

/// Picks the mode closest to the preferred size and rate. Frame rate below the
/// preference costs more than size: a 5 fps 1080p preview looks broken, a 720p one
/// merely soft. A format libv4l2 must decode costs a little CPU, so native wins ties.
enum CameraModeChooser {
    static func choose(from modes: [CameraMode], width: Int, height: Int, framesPerSecond: Double) -> CameraMode? {
        modes.min { cost($0, width, height, framesPerSecond) < cost($1, width, height, framesPerSecond) }
    }

    static func cost(_ mode: CameraMode, _ width: Int, _ height: Int, _ fps: Double) -> Double {
        let area = Double(mode.width * mode.height) / Double(max(1, width * height))
        let aspect = (Double(mode.width) / Double(mode.height)) / (Double(width) / Double(max(1, height)))
        let sizeCost: Double = abs(log2(area))
        let aspectCost: Double = 0.5 * abs(log2(aspect))
        var cost = sizeCost + aspectCost
        let rate = max(mode.framesPerSecond, 0.1)
        let rateCost: Double = rate < fps ? 1.5 * log2(fps / rate) : 0.1 * log2(rate / fps)
        cost += rateCost
        if mode.emulated { cost += 0.3 }
        return cost
    }
}
