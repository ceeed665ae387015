import Glibc
import Kiosk
import Stage

/// The physical floor: copying one finished XRGB8888 frame. No compositor can put a
/// frame into a buffer faster than memory can move it, so every composition figure
/// is also given as a multiple of this.
///
/// `uncached`: each frame copies from the next of sources that together outgrow the
/// processor's cache, into two targets in turn (a double-buffered display). That is
/// the floor for a frame whose pixels were not read recently, as a scroll whose row
/// phase changes every frame reads another phase's pieces or window each time.
struct FloorBench: ~Copyable {
    let display: BenchReport.Display
    private let sources: [UnsafeMutableRawPointer]
    private let targets: [UnsafeMutableRawPointer]
    private var next = 0

    /// What the uncached sources add up to at least: beyond the last-level cache of
    /// the machines the bench runs on (32 MiB on the development VM).
    static let uncachedBytes = 128 << 20

    init(display: BenchReport.Display, uncached: Bool = false) {
        self.display = display
        let bytes = display.frameBytes
        let sourceCount = uncached ? max(2, (Self.uncachedBytes + bytes - 1) / bytes) : 1
        sources = (0..<sourceCount).map { _ in .allocate(byteCount: bytes, alignment: 64) }
        targets = (0..<(uncached ? 2 : 1)).map { _ in .allocate(byteCount: bytes, alignment: 64) }
        // Touch every page first: the floor is the copy, not the kernel's page faults.
        for source in sources { memset(source, 0x40, bytes) }
        for target in targets { memset(target, 0, bytes) }
    }

    deinit {
        for pointer in sources + targets { pointer.deallocate() }
    }

    mutating func copyFrame() {
        memcpy(targets[next % targets.count], sources[next % sources.count], display.frameBytes)
        next += 1
    }

    mutating func measure(frames: Int) -> BenchMeasurement {
        BenchMeasurement(samplesMs: BenchClock.sampleMs(frames: frames, warmup: 3) { copyFrame() })
    }
}
