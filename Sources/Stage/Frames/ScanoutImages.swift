import Render

/// One pixman image per scanout buffer, made once: buffers are double-buffered and
/// live until a modeset, so the cache stays at a few entries.
final class ScanoutImages {
    private var images: [UnsafeMutableRawPointer: BorrowedFrameBuffer] = [:]

    func image(for target: FrameTarget) -> BorrowedFrameBuffer? {
        if let cached = images[target.pixels], cached.size == PixelSize(width: target.width, height: target.height) {
            return cached
        }
        if images.count > 8 { images.removeAll() }
        let buffer = try? BorrowedFrameBuffer(memory: target.pixels, width: target.width, height: target.height,
                                              strideBytes: target.stride)
        images[target.pixels] = buffer
        return buffer
    }
}
