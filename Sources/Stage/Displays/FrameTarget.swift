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
    /// Drawn ahead for `presentationTime` and held, not flipped: the display flips it
    /// only if a later frame finds it is still what should show (`holdsPrepared`).
    package var preparing = false
    /// The buffer holds the frame last drawn `preparing`, untouched since: a frame that
    /// would draw the same pixels flips it instead of drawing.
    package var holdsPrepared = false

    package init(width: Int, height: Int, stride: Int, pixels: UnsafeMutableRawPointer, presentationTime: Double,
                 mustDraw: Bool, preparing: Bool = false, holdsPrepared: Bool = false) {
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
        self.presentationTime = presentationTime
        self.mustDraw = mustDraw
        self.preparing = preparing
        self.holdsPrepared = holdsPrepared
    }

    /// A row of pixels as 32-bit XRGB words.
    package func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        (pixels + y * stride).assumingMemoryBound(to: UInt32.self)
    }
}
