import Foundation

/// The state the caller's threads and the encoding thread share, behind one lock:
/// the bounded queue, the lifecycle, the counters and the events not yet read.
final class RecorderQueue: @unchecked Sendable {
    // @unchecked: every field is read and written only with `condition` locked.
    enum Item {
        case video(RecorderVideoFrame)
        case audio(RecorderAudioChunk)
    }

    enum Phase: Equatable {
        case recording
        case finishing
        case cancelling
        /// Ended by itself (free space, failure); the file is closed.
        case stopped
    }

    let condition = NSCondition()
    let videoLimit: Int
    let audioLimit: Int
    var items: [Item] = []
    var head = 0
    var queuedVideo = 0
    var queuedAudio = 0
    var phase = Phase.recording
    var threadDone = false
    var droppedFrames = 0
    var droppedAudioChunks = 0
    var pressureShown = false
    var events: [RecorderEvent] = []
    var lastTimestamp: [RecordedStream: Double] = [:]
    /// The newest media time of each stream taken into the queue (not dropped).
    var acceptedTimestamp: [RecordedStream: Double] = [:]
    var stallReported: Set<RecordedStream> = []
    var outcome: Result<RecordingResult, MediaError>?

    init(videoLimit: Int, audioLimit: Int) {
        self.videoLimit = max(1, videoLimit)
        self.audioLimit = max(1, audioLimit)
    }

    func locked<R>(_ body: () throws -> R) rethrows -> R {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    /// Queues an item unless the queue is full; returns whether an event was added.
    /// Called with the lock held.
    func offer(_ item: Item, stream: RecordedStream, endTime: Double) -> Bool {
        guard phase == .recording else { return false }
        lastTimestamp[stream] = max(lastTimestamp[stream] ?? endTime, endTime)
        stallReported.remove(stream)
        switch item {
        case .video:
            guard queuedVideo < videoLimit else {
                droppedFrames += 1
                report(pressure())
                return true
            }
            queuedVideo += 1
        case .audio:
            guard queuedAudio < audioLimit else {
                droppedAudioChunks += 1
                report(pressure())
                return true
            }
            queuedAudio += 1
        }
        items.append(item)
        acceptedTimestamp[stream] = max(acceptedTimestamp[stream] ?? endTime, endTime)
        condition.signal()
        if queuedVideo * 2 > videoLimit, !pressureShown {
            pressureShown = true
            report(pressure())
            return true
        }
        return false
    }

    /// The oldest item (lock held).
    func next() -> Item? {
        guard head < items.count else {
            items.removeAll(keepingCapacity: true)
            head = 0
            return nil
        }
        let item = items[head]
        head += 1
        if head > 256 {
            items.removeFirst(head)
            head = 0
        }
        switch item {
        case .video: queuedVideo -= 1
        case .audio: queuedAudio -= 1
        }
        if queuedVideo * 4 <= videoLimit { pressureShown = false }
        return item
    }

    func discardQueued() {
        items.removeAll()
        head = 0
        queuedVideo = 0
        queuedAudio = 0
    }

    private func pressure() -> RecorderEvent {
        .writerPressure(WriterPressure(queuedFrames: queuedVideo, queueLimit: videoLimit, droppedFrames: droppedFrames,
                                       droppedAudioChunks: droppedAudioChunks))
    }

    /// Adds an event; a pressure report replaces one not yet read (lock held).
    func report(_ event: RecorderEvent) {
        if case .writerPressure = event, let last = events.last, case .writerPressure = last {
            events[events.count - 1] = event
        } else {
            events.append(event)
        }
    }
}
