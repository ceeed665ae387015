/// Where a frame goes: plain XRGB8888 memory the delegate writes directly, and the
/// time (CLOCK_MONOTONIC seconds) at which the frame is predicted to reach the glass.
package struct FrameTarget {
    package let width: Int
    package let height: Int
    /// Bytes per row; at least width * 4.
    package let stride: Int
    package let pixels: UnsafeMutableRawPointer
    package let presentationTime: Double
    /// The buffer is fresh (after a modeset or a hotplug): draw everything, and the
    /// frame is shown whatever the delegate returns.
    package let mustDraw: Bool

    package init(width: Int, height: Int, stride: Int, pixels: UnsafeMutableRawPointer, presentationTime: Double,
                 mustDraw: Bool) {
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
        self.presentationTime = presentationTime
        self.mustDraw = mustDraw
    }

    /// A row of pixels as 32-bit XRGB words.
    package func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        (pixels + y * stride).assumingMemoryBound(to: UInt32.self)
    }
}
