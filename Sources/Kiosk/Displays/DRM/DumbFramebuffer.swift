import CDRM
import Glibc
import Stage

/// One XRGB8888 dumb buffer, mapped into our memory and registered as a framebuffer.
/// Frees all three (mapping, framebuffer, buffer) in deinit.
final class DumbFramebuffer: FrameBuffer {
    let width: Int
    let height: Int
    let stride: Int
    let framebufferID: UInt32
    let pixels: UnsafeMutableRawPointer
    private let size: Int
    private let handle: UInt32
    private let fd: Int32

    init(card: DRMCard, width: Int, height: Int) throws(DisplaysError) {
        let fd = card.fd
        self.fd = fd
        self.width = width
        self.height = height
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        var rc = drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size)
        if rc != 0 { throw card.errorText("creating a \(width)x\(height) dumb buffer", rc == -1 ? errno : rc) }
        var offset: UInt64 = 0
        rc = drmModeMapDumbBuffer(fd, handle, &offset)
        guard rc == 0, let map = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset)),
              map != MAP_FAILED else {
            let code = errno
            drmModeDestroyDumbBuffer(fd, handle)
            throw card.errorText("mapping a dumb buffer", code)
        }
        let handles: [UInt32] = [handle, 0, 0, 0]
        let pitches: [UInt32] = [pitch, 0, 0, 0]
        let offsets: [UInt32] = [0, 0, 0, 0]
        var fbID: UInt32 = 0
        rc = drmModeAddFB2(fd, UInt32(width), UInt32(height), RIG_DRM_FORMAT_XRGB8888,
                           handles, pitches, offsets, &fbID, 0)
        if rc != 0 {
            let code = errno
            munmap(map, Int(size))
            drmModeDestroyDumbBuffer(fd, handle)
            throw card.errorText("drmModeAddFB2", code)
        }
        self.handle = handle
        self.size = Int(size)
        stride = Int(pitch)
        framebufferID = fbID
        pixels = map
        clear()
    }

    deinit {
        munmap(pixels, size)
        drmModeRmFB(fd, framebufferID)
        drmModeDestroyDumbBuffer(fd, handle)
    }

    /// Black, so a fresh buffer never shows another process's leftovers.
    func clear() {
        memset(pixels, 0, size)
    }
}
