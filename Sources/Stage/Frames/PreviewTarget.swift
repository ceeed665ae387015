import Render

/// What the outer display's camera preview is drawn at.
package struct PreviewTarget: Equatable, Sendable {
    package var size: PixelSize
    package var mirrored: Bool

    package init(size: PixelSize, mirrored: Bool) {
        self.size = size
        self.mirrored = mirrored
    }
}
