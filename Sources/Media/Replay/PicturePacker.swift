import CFFmpeg

/// Converts decoded pictures of one size and format into packed I420.
final class PicturePacker {
    let width: Int
    let height: Int
    let format: Int32
    let scaler: PixelScaler
    let target: MediaFrame
    /// Even, so the chroma planes' half stride holds a whole chroma row.
    let bytesPerLine: Int

    init(for frame: MediaFrame) throws(MediaError) {
        width = frame.width
        height = frame.height
        format = frame.pointer.pointee.format
        scaler = try PixelScaler(width: width, height: height, from: AVPixelFormat(rawValue: format), to: AV_PIX_FMT_YUV420P)
        target = try MediaFrame.video(width: width, height: height, format: AV_PIX_FMT_YUV420P)
        bytesPerLine = (width + 1) & ~1
    }

    func matches(_ frame: MediaFrame) -> Bool {
        frame.width == width && frame.height == height && frame.pointer.pointee.format == format
    }

    func pack(_ frame: MediaFrame, time: Double, index: Int) -> ReplayPicture {
        scaler.convert(frame, into: target)
        let chromaRows = (height + 1) / 2
        let chromaLine = bytesPerLine / 2
        var bytes = [UInt8](repeating: 128, count: bytesPerLine * height + 2 * chromaLine * chromaRows)
        bytes.withUnsafeMutableBytes { out in
            guard let base = out.baseAddress else { return }
            func copy(plane: Int, rows: Int, rowBytes: Int, line: Int, offset: Int) {
                guard let source = target.plane(plane) else { return }
                let stride = target.lineSize(plane)
                for row in 0..<rows {
                    (base + offset + row * line).copyMemory(from: source + row * stride, byteCount: rowBytes)
                }
            }
            copy(plane: 0, rows: height, rowBytes: width, line: bytesPerLine, offset: 0)
            let chromaWidth = (width + 1) / 2
            copy(plane: 1, rows: chromaRows, rowBytes: chromaWidth, line: chromaLine, offset: bytesPerLine * height)
            copy(plane: 2, rows: chromaRows, rowBytes: chromaWidth, line: chromaLine,
                 offset: bytesPerLine * height + chromaLine * chromaRows)
        }
        return ReplayPicture(time: time, index: index, width: width, height: height, bytesPerLine: bytesPerLine,
                             bytes: bytes)
    }
}
