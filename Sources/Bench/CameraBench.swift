import Kiosk
import Render
import Stage

/// The game's camera preview, one frame: a 1920x1080 YUYV frame (as a webcam sends
/// it) converted, mirrored and aspect-fit into a 1920x1080 XRGB8888 frame, with the
/// cue badge blended on top, the same work as rig's CameraConversionBenchmark and
/// the GStreamer peer's videoconvert ! videoflip (which has no badge).
final class CameraBench {
    static let width = 1920, height = 1080

    private let source: UnsafeMutableRawPointer
    private let target: UnsafeMutableRawPointer
    private let image: CameraImage
    private let region: XRGBRegion
    private let converter = CameraFrameConverter()
    private let badge = CameraOverlayBadge(side: 360)

    init() throws {
        let sourceStride = Self.width * 2, targetStride = Self.width * 4
        source = .allocate(byteCount: sourceStride * Self.height, alignment: 64)
        target = .allocate(byteCount: targetStride * Self.height, alignment: 64)
        // A horizontal luma ramp with neutral chroma: content does not change the cost.
        let bytes = source.assumingMemoryBound(to: UInt8.self)
        for row in 0..<Self.height {
            for x in stride(from: 0, to: Self.width, by: 2) {
                let at = row * sourceStride + x * 2
                let luma = UInt8(16 + x * 219 / Self.width)
                bytes[at] = luma; bytes[at + 1] = 128; bytes[at + 2] = luma; bytes[at + 3] = 128
            }
        }
        do {
            image = try CameraImage(format: .yuyv, width: Self.width, height: Self.height,
                                    bytesPerLine: sourceStride, base: source, byteCount: sourceStride * Self.height)
            region = try XRGBRegion(base: target, bytesPerRow: targetStride, width: Self.width, height: Self.height)
        } catch {
            source.deallocate()
            target.deallocate()
            throw error
        }
    }

    deinit {
        source.deallocate()
        target.deallocate()
    }

    func convertFrame() throws {
        _ = try converter.draw(image, into: region, mirrored: true)
        badge.blend(onto: region, x: (Self.width - badge.width) / 2, y: (Self.height - badge.height) / 2)
    }
}
