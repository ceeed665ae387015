import Media
import Render

/// The replayed picture fitted into its rectangle on the inner display, converted
/// and scaled once per picture by the camera converter (libyuv), into ordinary
/// memory the compositor blends from. Never mirrored: the recording is not. A cue
/// letter is drawn over the picture as the cue export burns it in: the one `CueBadge`
/// in the recording's style, placed on the picture as on the recorded frame.
final class ReplayPictureCanvas {
    private var cached: (canvas: Canvas, key: String?)?
    private let converter = CameraFrameConverter()

    func layers(_ picture: ReplayPicture?, of clip: String, in rect: PixelRect, cue: Character? = nil,
                painter: GlyphPainter? = nil, labels: LabelCache? = nil) -> [Layer] {
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
        var layers: [Layer] = [.image(canvas, x: rect.x, y: rect.y)]
        if let cue, let painter {
            // The badge's place and size follow the picture, not the letterboxed rectangle.
            let fit = PixelRect.fit(sourceWidth: picture.width, sourceHeight: picture.height,
                                    targetWidth: rect.width, targetHeight: rect.height)
            let area = PixelRect(x: rect.x + fit.x, y: rect.y + fit.y, width: fit.width, height: fit.height)
            layers += CueBadge.layers(letter: cue, in: area, painter: painter, labels: labels, style: .recording)
        }
        return layers
    }
}
