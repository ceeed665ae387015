import Media
import Render

/// The replayed picture fitted into its rectangle on the inner display, converted
/// and scaled once per picture by the camera converter (libyuv), into ordinary
/// memory the compositor blends from. Never mirrored: the recording is not.
final class ReplayPictureCanvas {
    private var cached: (canvas: Canvas, key: String?)?
    private let converter = CameraFrameConverter()

    func layers(_ picture: ReplayPicture?, of clip: String, in rect: PixelRect) -> [Layer] {
        guard let picture, rect.width > 0, rect.height > 0 else { return [] }
        let size = PixelSize(width: rect.width, height: rect.height)
        if cached?.canvas.size != size { cached = (try? Canvas(size: size)).map { ($0, nil) } }
        guard let canvas = cached?.canvas else { return [] }
        let key = "\(clip)#\(picture.index)"
        if cached?.key != key {
            // Letterbox bars stay black around a picture of another shape.
            canvas.pixels.update(repeating: 0xff00_0000)
            picture.bytes.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress, let pixels = canvas.pixels.baseAddress,
                      let image = try? CameraImage(format: .i420, width: picture.width, height: picture.height,
                                                   bytesPerLine: picture.bytesPerLine, base: base,
                                                   byteCount: bytes.count),
                      let region = try? XRGBRegion(base: UnsafeMutableRawPointer(pixels), bytesPerRow: canvas.width * 4,
                                                   width: canvas.width, height: canvas.height) else { return }
                _ = try? converter.draw(image, into: region, mirrored: false)
            }
            cached = (canvas, key)
        }
        return [.image(canvas, x: rect.x, y: rect.y)]
    }
}
