import Stage

/// A display's pixels in plain memory: XRGB8888, rows packed. Owns the allocation.
final class HeadlessFramebuffer: FrameBuffer {
    let width: Int
    let height: Int
    let stride: Int
    let pixels: UnsafeMutableRawPointer

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = width * 4
        pixels = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
        pixels.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height)
    }

    deinit { pixels.deallocate() }

    func clear() {
        pixels.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height)
    }

    func copy(from other: HeadlessFramebuffer) {
        pixels.copyMemory(from: other.pixels, byteCount: min(stride * height, other.stride * other.height))
    }

    /// The pixel at (x, y) as 0xRRGGBB.
    func pixel(x: Int, y: Int) -> UInt32 {
        (pixels + y * stride).assumingMemoryBound(to: UInt32.self)[x] & 0xFF_FFFF
    }

    /// Binary PPM (P6): the format QEMU's screendump writes, so tests compare like with like.
    func ppm() -> [UInt8] {
        var out = Array("P6\n\(width) \(height)\n255\n".utf8)
        out.reserveCapacity(out.count + width * height * 3)
        for y in 0..<height {
            let row = (pixels + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let p = row[x]
                out.append(UInt8((p >> 16) & 0xFF))
                out.append(UInt8((p >> 8) & 0xFF))
                out.append(UInt8(p & 0xFF))
            }
        }
        return out
    }
}
