/// One decoded picture of a replayed clip, packed as I420 (the V4L2 single-planar
/// layout the camera converter reads: luma rows of `bytesPerLine`, then the two
/// chroma planes at half that stride), with its time on the clip's timeline.
public struct ReplayPicture: Sendable, Equatable {
    /// Seconds on the clip's timeline (its presentation timestamp).
    public var time: Double
    /// Its place in the clip, from 0, in presentation order.
    public var index: Int
    public var width: Int
    public var height: Int
    public var bytesPerLine: Int
    public var bytes: [UInt8]

    public init(time: Double, index: Int, width: Int, height: Int, bytesPerLine: Int, bytes: [UInt8]) {
        self.time = time
        self.index = index
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        self.bytes = bytes
    }
}

/// A replayed clip's sound: mono 16-bit at the file's rate, from `startTime` on the
/// clip's timeline (AAC's priming is already skipped).
public struct ReplaySound: Sendable, Equatable {
    public var sampleRate: Int
    public var startTime: Double
    public var samples: [Int16]

    public init(sampleRate: Int, startTime: Double, samples: [Int16]) {
        self.sampleRate = sampleRate
        self.startTime = startTime
        self.samples = samples
    }

    /// The samples from clip position `position` on.
    public func remainder(from position: Double) -> [Int16] {
        let skip = Int(((position - startTime) * Double(sampleRate)).rounded())
        guard skip > 0 else { return samples }
        return skip >= samples.count ? [] : Array(samples[skip...])
    }
}
