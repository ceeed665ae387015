import Media
import Render

/// The camera's pictures as the frames show them: the outer preview (converted,
/// mirrored and fitted once per camera frame into ordinary memory, so the overlays
/// blend there and not in scanout memory) and the inner console's unmirrored
/// thumbnail. Each is converted once per camera frame, however often it is drawn.
final class CameraPictures {
    private let converter = CameraFrameConverter()
    /// The outer preview shown last: converted here into `ownPreview`, or a picture
    /// converted off the loop (kept referenced while it shows, so its canvas stays).
    private var preview: (canvas: Canvas, sequence: UInt32?, picture: CameraPreviewPicture?)?
    private var ownPreview: Canvas?
    private var thumbnail: (canvas: Canvas, sequence: UInt32?)?
    /// Outer previews converted here (no picture converted off the loop came for the frame).
    private(set) var previewsConvertedHere = 0

    /// The camera frame the outer preview shows now, if any.
    var shownPreviewSequence: UInt32? { preview?.sequence }

    /// The outer preview of `camera` at `size`. A picture converted off the loop for
    /// this frame is placed as it is; a held preview stays while newer frames come.
    func outerPreview(_ camera: CameraView, size: PixelSize) -> Canvas? {
        guard let frame = camera.frame else { return nil }
        if preview?.canvas.size != size { preview = nil }
        if let shown = preview, shown.sequence == frame.sequence || (camera.holdPreview && shown.sequence != nil) {
            return shown.canvas
        }
        if let picture = camera.preview, picture.fits(sequence: frame.sequence, size: size, mirrored: camera.mirror) {
            preview = (picture.canvas, frame.sequence, picture)
            return picture.canvas
        }
        if ownPreview?.size != size { ownPreview = try? Canvas(size: size) }
        guard let canvas = ownPreview else { return nil }
        convert(frame, into: canvas, mirrored: camera.mirror)
        previewsConvertedHere += 1
        preview = (canvas, frame.sequence, nil)
        return canvas
    }

    /// The camera thumbnail fitted into `rect`: unmirrored, as the camera sees the
    /// scene; the camera's message where there is no frame.
    func thumbnailLayers(_ camera: CameraView, in rect: PixelRect, painter: GlyphPainter) -> [Layer] {
        guard let frame = camera.frame else {
            guard let message = camera.message else { return [] }
            return [.label(Label(message, style: TextStyle(fontSize: Double(max(10, rect.height / 8))),
                                 x: rect.x + rect.width / 16, y: rect.y + rect.height / 3,
                                 color: WidgetTheme(displayHeight: rect.height).secondaryText,
                                 maxWidth: rect.width * 7 / 8, painter: painter))]
        }
        let size = PixelSize(width: max(16, rect.width), height: max(9, rect.height))
        if thumbnail?.canvas.size != size { thumbnail = (try? Canvas(size: size)).map { ($0, nil) } }
        guard let canvas = thumbnail?.canvas else { return [] }
        if thumbnail?.sequence != frame.sequence {
            convert(frame, into: canvas, mirrored: false)
            thumbnail = (canvas, frame.sequence)
        }
        return [.image(canvas, x: rect.x, y: rect.y)]
    }

    private func convert(_ frame: CameraFrame, into canvas: Canvas, mirrored: Bool) {
        guard let base = canvas.pixels.baseAddress,
              let region = try? XRGBRegion(base: UnsafeMutableRawPointer(base), bytesPerRow: canvas.width * 4,
                                           width: canvas.width, height: canvas.height),
              let image = try? frame.image() else { return }
        _ = try? converter.draw(image, into: region, mirrored: mirrored)
    }
}
