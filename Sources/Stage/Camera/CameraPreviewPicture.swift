import Render
import Synchronization

/// The outer display's camera preview, converted, mirrored and fitted off the event
/// loop (the kiosk's preview thread): the outer frame places it as it is, so no
/// camera conversion runs while a frame is composed. Made for one camera frame
/// (`sequence`) at one display size; its canvas goes back to `pool` when the last
/// reference is dropped.
package final class CameraPreviewPicture: @unchecked Sendable {
    // @unchecked: the converter thread fills the canvas before handing the picture
    // over and never touches it again; after that it is only read, on the loop.
    package let canvas: Canvas
    package let sequence: UInt32
    package let mirrored: Bool
    private let pool: CameraPreviewPool

    package init(canvas: Canvas, sequence: UInt32, mirrored: Bool, pool: CameraPreviewPool) {
        self.canvas = canvas
        self.sequence = sequence
        self.mirrored = mirrored
        self.pool = pool
    }

    deinit { pool.giveBack(canvas) }

    package var size: PixelSize { canvas.size }

    /// Whether this picture is what the outer frame of `size` would convert from the
    /// camera frame `sequence` itself.
    package func fits(sequence: UInt32, size: PixelSize, mirrored: Bool) -> Bool {
        self.sequence == sequence && self.size == size && self.mirrored == mirrored
    }
}

/// Preview canvases kept for reuse: one shown, one being filled, one waiting.
package final class CameraPreviewPool: @unchecked Sendable {
    // @unchecked: a canvas in `free` belongs to no one; the lock guards the list.
    private let free = Mutex<[FreeCanvas]>([])
    private let keep: Int

    package init(keep: Int = 3) { self.keep = keep }

    /// A canvas of `size`, reused when one is free.
    package func take(size: PixelSize) throws(ImageError) -> Canvas {
        let reused = free.withLock { canvases -> FreeCanvas? in
            guard let index = canvases.firstIndex(where: { $0.canvas.size == size }) else { return nil }
            return canvases.remove(at: index)
        }
        if let reused { return reused.canvas }
        return try Canvas(size: size)
    }

    package func giveBack(_ canvas: Canvas) {
        let kept = FreeCanvas(canvas: canvas)
        free.withLock { canvases in
            if canvases.count >= keep { canvases.removeFirst() }
            canvases.append(kept)
        }
    }

    package var freeCount: Int { free.withLock { $0.count } }
}

/// A canvas nobody holds, moving between threads through the pool's lock.
private struct FreeCanvas: @unchecked Sendable {
    let canvas: Canvas
}
