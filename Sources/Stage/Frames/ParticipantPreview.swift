import Render

/// The participant view in small on the host's dashboard: the outer display's own
/// scene (`OuterCameraScene`, the same overlay the outer frame carries) composed at
/// the preview's size into memory of its own, then placed as one image. Inner frames
/// never report a cue, so the preview cannot acknowledge one.
final class ParticipantPreview {
    private let compositor = Compositor()
    private let converter = CameraFrameConverter()
    private var camera: (canvas: Canvas, sequence: UInt32?)?
    private var output: Canvas?

    /// The largest rectangle of the outer display's shape in `area`, centred at its top.
    static func fit(_ outer: PixelSize, in area: PixelRect) -> PixelRect {
        guard outer.width > 0, outer.height > 0 else { return area }
        var width = area.width
        var height = width * outer.height / outer.width
        if height > area.height {
            height = area.height
            width = height * outer.width / outer.height
        }
        return PixelRect(x: area.x + (area.width - width) / 2, y: area.y, width: max(16, width), height: max(9, height))
    }

    func layers(in area: PixelRect, outer: PixelSize, camera view: CameraView,
                painter: GlyphPainter?) -> (layers: [Layer], rect: PixelRect) {
        let rect = Self.fit(outer, in: area)
        let size = PixelSize(width: rect.width, height: rect.height)
        if output?.size != size { output = try? Canvas(size: size) }
        guard let output else { return ([], rect) }
        let scene = OuterCameraScene.layers(display: size, preview: cameraCanvas(view, size: size),
                                            message: view.message, overlay: view.overlay, painter: painter)
        compositor.compose(scene, into: output)
        return ([.image(output, x: rect.x, y: rect.y)], rect)
    }

    /// The camera frame converted and mirrored as the outer display has it, once per frame.
    private func cameraCanvas(_ view: CameraView, size: PixelSize) -> Canvas? {
        guard let frame = view.frame else { return nil }
        if camera?.canvas.size != size { camera = (try? Canvas(size: size)).map { ($0, nil) } }
        guard let canvas = camera?.canvas else { return nil }
        if camera?.sequence != frame.sequence {
            if let base = canvas.pixels.baseAddress,
               let region = try? XRGBRegion(base: UnsafeMutableRawPointer(base), bytesPerRow: canvas.width * 4,
                                            width: canvas.width, height: canvas.height),
               let image = try? frame.image() {
                _ = try? converter.draw(image, into: region, mirrored: view.mirror)
            }
            camera = (canvas, frame.sequence)
        }
        return canvas
    }
}
