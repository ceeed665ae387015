import CFFmpeg

/// One stream of a clip decoded frame by frame on demand: `next()` reads packets
/// (of this stream only; its own demuxer, so the picture and the sound each go at their
/// own pace) until the decoder has a frame, or the stream is over. For the replay
/// decoder's thread; not shared.
final class DecodedStream {
    let input: InputContainer
    let index: Int
    let timeBase: AVRational
    let decoder: CodecContext
    let frame: MediaFrame
    private let packet: MediaPacket
    /// A packet the decoder refused until drained (EAGAIN); sent again before reading on.
    private var pendingPacket = false
    private var flushed = false

    init(path: String, type: AVMediaType, kind: String) throws(MediaError) {
        input = try InputContainer(path: path)
        guard let found = input.firstStream(of: type), let stream = input.stream(found) else {
            throw .noStream(path: path, kind: kind)
        }
        index = found
        timeBase = stream.pointee.time_base
        decoder = try CodecContext.decoder(for: stream.pointee.codecpar, timeBase: timeBase)
        frame = try MediaFrame()
        packet = try MediaPacket()
        // The other streams' packets are not wanted from this demuxer.
        for other in 0..<input.streamCount where other != found { input.stream(other)?.pointee.discard = AVDISCARD_ALL }
    }

    /// Decodes into `frame` (unref'd first); false once the stream is over.
    func next() throws(MediaError) -> Bool {
        frame.unref()
        while true {
            if try decoder.receive(into: frame) { return true }
            if flushed { return false }
            if pendingPacket {
                if try decoder.send(packet) { pendingPacket = false; packet.unref() }
                continue
            }
            if input.read(into: packet) {
                if packet.streamIndex == index {
                    if try decoder.send(packet) { packet.unref() } else { pendingPacket = true }
                } else {
                    packet.unref()
                }
            } else {
                try decoder.send(nil as MediaPacket?)
                flushed = true
            }
        }
    }

    /// The frame's time on the clip's timeline. Sound uses pts, not the best-effort
    /// guess: only pts moves past the encoder's priming samples the decoder drops.
    func time(preferPTS: Bool) -> Double {
        let pts = frame.pointer.pointee.pts
        let stamp = preferPTS && pts != FFCode.noPTS ? pts : frame.bestTimestamp
        return stamp.map { Double($0) * av_q2d(timeBase) } ?? 0
    }
}
