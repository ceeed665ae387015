/// Camera pixel layouts the recorder takes (what V4L2 cameras and rig's converter give).
public enum RecordedPixelFormat: String, Sendable, Codable {
    /// Packed 4:2:2, Y0 U Y1 V: what most USB cameras and vivid deliver.
    case yuyv
    /// A Y plane then an interleaved UV plane at half height (same stride).
    case nv12
    /// 32-bit x8r8g8b8 little endian (bytes B, G, R, X).
    case xrgb

    func minimumBytesPerLine(width: Int) -> Int {
        switch self {
        case .yuyv: return width * 2
        case .nv12: return width
        case .xrgb: return width * 4
        }
    }

    func byteCount(bytesPerLine: Int, height: Int) -> Int {
        self == .nv12 ? bytesPerLine * (height + (height + 1) / 2) : bytesPerLine * height
    }
}

/// Frame bytes the recorder may read on its thread until it drops the value: either
/// its own copy, or the caller's memory kept alive by `owner` (a pooled camera frame),
/// so handing a frame over costs no copy.
public final class RecordedBytes: @unchecked Sendable {
    // @unchecked: the bytes are never written after construction; `owner` only keeps
    // the memory alive and is never touched.
    let base: UnsafeRawPointer
    let count: Int
    private let owner: (any Sendable)?
    private let owned: UnsafeMutableRawPointer?

    public init(copying bytes: UnsafeRawBufferPointer) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 64)
        if let source = bytes.baseAddress { memory.copyMemory(from: source, byteCount: bytes.count) }
        base = UnsafeRawPointer(memory)
        count = bytes.count
        owned = memory
        owner = nil
    }

    public convenience init(_ bytes: [UInt8]) {
        self.init(copying: bytes.withUnsafeBytes { $0 })
    }

    /// Reads `count` bytes at `base` for as long as the recorder holds this value;
    /// `owner` must keep them unchanged until then.
    public init(borrowing base: UnsafeRawPointer, count: Int, owner: any Sendable) {
        self.base = base
        self.count = count
        self.owner = owner
        owned = nil
    }

    deinit { owned?.deallocate() }
}

/// One camera frame for the recorder, stamped by the sensor on CLOCK_MONOTONIC.
public struct RecorderVideoFrame: Sendable {
    public var format: RecordedPixelFormat
    public var width: Int
    public var height: Int
    public var bytesPerLine: Int
    /// CLOCK_MONOTONIC seconds (the V4L2 buffer timestamp).
    public var timestamp: Double
    public var bytes: RecordedBytes

    public init(format: RecordedPixelFormat, width: Int, height: Int, bytesPerLine: Int, timestamp: Double,
                bytes: RecordedBytes) {
        self.format = format
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        self.timestamp = timestamp
        self.bytes = bytes
    }
}

/// Interleaved signed 16-bit samples from the capture device, stamped with the
/// CLOCK_MONOTONIC time its first sample was captured.
public struct RecorderAudioChunk: Sendable {
    public var samples: [Int16]
    public var timestamp: Double

    public init(samples: [Int16], timestamp: Double) {
        self.samples = samples
        self.timestamp = timestamp
    }
}
