import CFFmpeg

/// A clip's pictures for replay, decoded one at a time on demand and packed as I420,
/// numbered in presentation order with their times on the clip's timeline.
final class ReplayPictureStream {
    private let stream: DecodedStream
    private var packer: PicturePacker?
    private var count = 0

    init(path: String) throws(MediaError) {
        stream = try DecodedStream(path: path, type: AVMEDIA_TYPE_VIDEO, kind: "video")
    }

    /// The next picture, nil once the clip has no more.
    func next() throws(MediaError) -> ReplayPicture? {
        guard try stream.next() else { return nil }
        let frame = stream.frame
        if packer?.matches(frame) != true { packer = try PicturePacker(for: frame) }
        guard let packer else { return nil }
        let picture = packer.pack(frame, time: stream.time(preferPTS: false), index: count)
        count += 1
        return picture
    }
}
