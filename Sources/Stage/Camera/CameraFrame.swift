import Render
import Synchronization

/// One captured frame handed from the capture thread to the event loop: the pixels
/// (device format, or x8r8g8b8 when converted on the capture thread) and when the
/// sensor delivered them. Immutable once published; its memory goes back to the
/// pool when the last reference is dropped, so a steady stream allocates nothing.
package final class CameraFrame: @unchecked Sendable {
    // @unchecked: the capture thread writes the bytes before publishing the frame and
    // never touches them again; after that the frame is only read.
    package let format: CameraPixelFormat
    package let width: Int
    package let height: Int
    package let bytesPerLine: Int
    /// The driver's frame counter; gaps mean frames the device dropped.
    package let sequence: UInt32
    /// CLOCK_MONOTONIC seconds from the V4L2 buffer: comparable with flip times.
    package let timestamp: Double
    private let memory: CameraFrameMemory
    private let pool: CameraFramePool

    package init(format: CameraPixelFormat, width: Int, height: Int, bytesPerLine: Int, sequence: UInt32,
         timestamp: Double, memory: CameraFrameMemory, pool: CameraFramePool) {
        self.format = format
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        self.sequence = sequence
        self.timestamp = timestamp
        self.memory = memory
        self.pool = pool
    }

    deinit { pool.giveBack(memory) }

    package var byteCount: Int { min(format.frameByteCount(bytesPerLine: bytesPerLine, height: height), memory.capacity) }

    /// The first byte, for a reader that keeps this frame alive while it reads (the
    /// recorder borrows the memory instead of copying it).
    package var baseAddress: UnsafeRawPointer { UnsafeRawPointer(memory.start) }

    /// The frame as the converter reads it.
    package func image() throws(CameraFrameError) -> CameraImage {
        try CameraImage(format: format, width: width, height: height, bytesPerLine: bytesPerLine,
                        base: UnsafeRawPointer(memory.start), byteCount: min(byteCount, memory.capacity))
    }
}

/// A block of frame memory; moves between the pool and one frame at a time.
package struct CameraFrameMemory: @unchecked Sendable {
    package let start: UnsafeMutableRawPointer
    package let capacity: Int

    package init(start: UnsafeMutableRawPointer, capacity: Int) {
        self.start = start
        self.capacity = capacity
    }
}

/// Frame memory kept for reuse: a frame being shown, one being filled and one
/// waiting is the most a steady preview needs.
package final class CameraFramePool: Sendable {
    private let free = Mutex<[CameraFrameMemory]>([])
    package let keep: Int

    package init(keep: Int = 3) { self.keep = keep }

    deinit { free.withLock { $0.forEach { $0.start.deallocate() } } }

    /// Memory of at least `bytes`, reused when a big enough block is free.
    package func take(bytes: Int) -> CameraFrameMemory {
        let reused = free.withLock { blocks -> CameraFrameMemory? in
            guard let index = blocks.firstIndex(where: { $0.capacity >= bytes }) else { return nil }
            return blocks.remove(at: index)
        }
        if let reused { return reused }
        return CameraFrameMemory(start: .allocate(byteCount: bytes, alignment: 64), capacity: bytes)
    }

    package func giveBack(_ memory: CameraFrameMemory) {
        let kept = free.withLock { blocks -> Bool in
            guard blocks.count < keep else { return false }
            blocks.append(memory)
            return true
        }
        if !kept { memory.start.deallocate() }
    }

    package var freeCount: Int { free.withLock { $0.count } }
}
