import Glibc
import Kiosk
import Stage

/// The physical floor: copying one finished XRGB8888 frame. No compositor can put a
/// frame into a buffer faster than memory can move it, so every composition figure
/// is also given as a multiple of this.
struct FloorBench: ~Copyable {
    let display: BenchReport.Display
    private let source: UnsafeMutableRawPointer
    private let target: UnsafeMutableRawPointer

    init(display: BenchReport.Display) {
        self.display = display
        let bytes = display.frameBytes
        source = .allocate(byteCount: bytes, alignment: 64)
        target = .allocate(byteCount: bytes, alignment: 64)
        // Touch every page first: the floor is the copy, not the kernel's page faults.
        memset(source, 0x40, bytes)
        memset(target, 0, bytes)
    }

    deinit {
        source.deallocate()
        target.deallocate()
    }

    func copyFrame() {
        memcpy(target, source, display.frameBytes)
    }

    func measure(frames: Int) -> BenchMeasurement {
        BenchMeasurement(samplesMs: BenchClock.sampleMs(frames: frames, warmup: 3) { copyFrame() })
    }
}
