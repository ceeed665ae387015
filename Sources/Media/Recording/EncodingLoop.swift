import Foundation

/// The recorder's thread: takes queued frames and samples in order, encodes and
/// writes them, watches free space, and closes the file when told or when it must.
final class EncodingLoop: @unchecked Sendable {
    // @unchecked: `writer` is created by the recorder, then used only by this thread.
    private let writer: MP4Writer
    private let queue: RecorderQueue
    private let settings: RecorderSettings
    private let folder: String
    private let finalPath: String
    private let freeSpace: @Sendable (String) -> UInt64?
    private let onEvents: @Sendable () -> Void
    private var stopMessage: String?

    init(writer: MP4Writer, queue: RecorderQueue, settings: RecorderSettings, folder: String, finalPath: String,
         freeSpace: @escaping @Sendable (String) -> UInt64?, onEvents: @escaping @Sendable () -> Void) {
        self.writer = writer
        self.queue = queue
        self.settings = settings
        self.folder = folder
        self.finalPath = finalPath
        self.freeSpace = freeSpace
        self.onEvents = onEvents
    }

    func run() {
        while let item = nextItem() {
            do {
                switch item {
                case let .video(frame):
                    try writer.write(frame)
                    if let stop = checkFreeSpace() { return end(stoppedBy: stop) }
                case let .audio(chunk): try writer.write(chunk)
                }
            } catch {
                return end(stoppedBy: .failed(error))
            }
        }
        let cancelled = queue.locked { queue.phase == .cancelling }
        if cancelled { return done(.failure(.notRecording)) }
        done(close())
    }

    /// The next item, waiting while the queue is empty; nil when the loop must end.
    private func nextItem() -> RecorderQueue.Item? {
        queue.condition.lock()
        defer { queue.condition.unlock() }
        while true {
            if queue.phase == .cancelling {
                queue.discardQueued()
                return nil
            }
            if let item = queue.next() { return item }
            if queue.phase != .recording { return nil }
            queue.condition.wait()
        }
    }

    /// Checks free space after every frame (statvfs costs about a microsecond),
    /// counting what the muxer still holds for the current fragment as already used,
    /// so the minimum stays free even when that fragment is written.
    private func checkFreeSpace() -> RecorderStop? {
        guard let available = freeSpace(folder) else { return nil }
        let pending = writer.bytesPending
        let usable = available > pending ? available - pending : 0
        return usable < settings.minimumFreeBytes
            ? .diskFull(available: usable, minimum: settings.minimumFreeBytes) : nil
    }

    /// Ends the recording by itself: closes the file so it plays, tells the caller.
    private func end(stoppedBy stop: RecorderStop) {
        stopMessage = stop.description
        let outcome = close()
        let cancelled = queue.locked { () -> Bool in
            let cancelled = queue.phase == .cancelling
            if !cancelled {
                queue.phase = .stopped
                queue.discardQueued()
                queue.report(.stopped(stop))
            }
            return cancelled
        }
        if !cancelled { onEvents() }
        done(outcome)
    }

    private func close() -> Result<RecordingResult, MediaError> {
        do {
            try writer.finish()
        } catch {
            // The file still plays up to its last fragment; keep it and say why.
            if stopMessage == nil { stopMessage = "\(error)" }
        }
        do {
            try DurableFile.rename(writer.path, to: finalPath)
        } catch {
            return .failure(error)
        }
        return .success(result())
    }

    private func result() -> RecordingResult {
        let stats = writer.stats
        let videoEnd = stats.lastVideoTimestamp.map { $0 + 1 / Double(max(1, settings.nominalFrameRate)) }
        let end = [videoEnd, stats.lastAudioTimestamp].compactMap { $0 }.max()
        let counts = queue.locked { (queue.droppedFrames, queue.droppedAudioChunks) }
        return RecordingResult(
            path: finalPath, duration: max(0, (end ?? origin) - origin), origin: origin,
            videoFrames: stats.videoFrames, droppedFrames: counts.0, rejectedFrames: stats.rejectedFrames,
            audioSamples: stats.audioSamples, droppedAudioChunks: counts.1, audioGapsFilled: stats.audioGapsFilled,
            firstVideoTimestamp: stats.firstVideoTimestamp, lastVideoTimestamp: stats.lastVideoTimestamp,
            firstAudioTimestamp: stats.firstAudioTimestamp, lastAudioTimestamp: stats.lastAudioTimestamp,
            bytes: writer.bytesWritten, stopMessage: stopMessage, settings: settings)
    }

    private var origin: Double { writer.origin }

    private func done(_ outcome: Result<RecordingResult, MediaError>) {
        queue.locked {
            if queue.outcome == nil { queue.outcome = outcome }
            queue.threadDone = true
            queue.condition.broadcast()
        }
    }
}
