import CLinux
import Stage

/// How the kiosk asks glibc to place its large buffers, so its resident memory
/// follows what it holds instead of what malloc keeps around.
///
/// By default glibc maps allocations of 128 KB and more on their own and unmaps them
/// when freed, but the first such free raises that threshold to the freed size (up to
/// 32 MB). From then on the text's highlight strip (1.4 MB at 1024 px, rebuilt every
/// few seconds of scrolling) and any later text piece come from the heap, whose top
/// grows and shrinks by a strip at a time: the 10-minute soak saw the kiosk's RSS move
/// in 1.4 MB steps for that reason alone. A fixed threshold turns the dynamic one off:
/// every buffer from `mmapThresholdBytes` up is mapped on allocation and unmapped on
/// free, so a buffer replaced by one of the same size leaves RSS where it was.
enum MallocPolicy {
    static let mmapThresholdBytes: Int32 = 512 << 10

    /// Process-wide; call once at start, before the first large buffer is freed.
    /// Returns whether glibc took it.
    @discardableResult
    static func apply() -> Bool {
        mallopt(M_MMAP_THRESHOLD, mmapThresholdBytes) == 1
    }
}
