import Foundation

/// Records camera frames and microphone samples to a fragmented MP4 on its own
/// thread. `append` never waits for the encoder: a full queue drops the frame and
/// says so in an event. The file is written under a hidden temporary name and renamed
/// when it is closed; `finish()` adds the JSON metadata beside it, `cancel()` removes
/// everything. A crash leaves the temporary file, playable up to its last fragment.
public final class Recorder: Sendable {
    /// Where the finished recording will be.
    public let path: String
    /// The JSON beside it.
    public let metadataPath: String
    /// Where it is written while recording.
    public let temporaryPath: String
    public let origin: Double
    private let queue: RecorderQueue
    private let settings: RecorderSettings
    private let audioFormat: AudioTrackFormat?
    private let onEvents: @Sendable () -> Void

    /// Starts recording into `folder/name.mp4`. Timestamps are CLOCK_MONOTONIC seconds;
    /// `origin` is time zero in the file (what comes earlier is left out).
    public init(folder: String, name: String, video: VideoTrackFormat, audio: AudioTrackFormat?, origin: Double,
                settings: RecorderSettings = RecorderSettings(),
                freeSpace: @escaping @Sendable (String) -> UInt64? = FreeSpace.available,
                onEvents: @escaping @Sendable () -> Void = {}) throws(MediaError) {
        guard !name.isEmpty, !name.contains("/") else { throw .badInput("recording name '\(name)'") }
        path = folder + "/" + name + ".mp4"
        metadataPath = folder + "/" + name + ".json"
        temporaryPath = folder + "/." + name + ".mp4.partial"
        self.origin = origin
        self.settings = settings
        audioFormat = audio
        self.onEvents = onEvents
        guard let available = freeSpace(folder) else { throw .posix(folder, "check free space in") }
        guard available >= settings.minimumFreeBytes else {
            throw .notEnoughSpace(path: folder, available: available, minimum: settings.minimumFreeBytes)
        }
        let writer: MP4Writer
        do {
            writer = try MP4Writer(path: temporaryPath, video: video, audio: audio, settings: settings, origin: origin)
        } catch {
            unlink(temporaryPath)
            throw error
        }
        queue = RecorderQueue(videoLimit: settings.queueLimit, audioLimit: max(64, settings.queueLimit * 8))
        let loop = EncodingLoop(writer: writer, queue: queue, settings: settings, folder: folder, finalPath: path,
                                freeSpace: freeSpace, onEvents: onEvents)
        let thread = Thread { loop.run() }
        thread.name = "rig-recorder"
        thread.start()
    }

    /// Files a crash or power cut left in `folder`: recordings still under their
    /// temporary name (playable up to their last fragment) and unfinished exports.
    /// The caller decides whether to keep, rename or remove them.
    public static func incompleteFiles(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix(".") && $0.hasSuffix(".partial") }.sorted().map { folder + "/" + $0 }
    }

    deinit {
        // Dropped without finish(): nothing half-made is left behind.
        let running = queue.locked { !queue.threadDone }
        if running { cancel() }
    }

    public func append(_ frame: RecorderVideoFrame) {
        let notify = queue.locked { queue.offer(.video(frame), stream: .video, endTime: frame.timestamp) }
        if notify { onEvents() }
    }

    public func append(_ chunk: RecorderAudioChunk) {
        guard let audioFormat else { return }
        let seconds = Double(chunk.samples.count / max(1, audioFormat.channels)) / Double(audioFormat.sampleRate)
        let notify = queue.locked { queue.offer(.audio(chunk), stream: .audio, endTime: chunk.timestamp + seconds) }
        if notify { onEvents() }
    }

    /// How full the video queue is now, and how many frames it has dropped: the
    /// preview converter reads this to give way to the recorder when the machine is short.
    public var videoQueue: RecorderQueueFill {
        queue.locked {
            RecorderQueueFill(queued: queue.queuedVideo, limit: queue.videoLimit, dropped: queue.droppedFrames,
                              recording: queue.phase == .recording)
        }
    }

    /// How far the recorder has taken `stream` in (CLOCK_MONOTONIC seconds): a video
    /// frame counts from its timestamp, sound up to its last sample's end. Nil until
    /// something at or after the origin was accepted, and after the recording ended by
    /// itself. Dropped items never count; what counts is written unless the file fails.
    public func accepted(_ stream: RecordedStream) -> Double? {
        queue.locked {
            guard queue.phase == .recording || queue.phase == .finishing,
                  let time = queue.acceptedTimestamp[stream], time >= origin else { return nil }
            return time
        }
    }

    /// Events since the last call, plus a stall report for each stream whose newest
    /// timestamp is more than the stall limit before `now` (CLOCK_MONOTONIC seconds).
    public func takeEvents(now: Double) -> [RecorderEvent] {
        queue.locked {
            if queue.phase == .recording {
                let streams: [RecordedStream] = audioFormat == nil ? [.video] : [.video, .audio]
                for stream in streams where !queue.stallReported.contains(stream) {
                    let last = queue.lastTimestamp[stream]
                    let silent = now - (last ?? origin)
                    if silent > settings.stallLimit {
                        queue.stallReported.insert(stream)
                        queue.events.append(.streamStalled(stream, lastTimestamp: last, silentFor: silent))
                    }
                }
            }
            defer { queue.events.removeAll() }
            return queue.events
        }
    }

    /// Encodes what is queued, closes the file, renames it into place and writes the
    /// JSON metadata beside it (with `annotations`). Waits for the encoding thread.
    public func finish(annotations: [String: String] = [:]) throws(MediaError) -> RecordingResult {
        let outcome = waitForThread(setting: .finishing)
        let result = try outcome.get()
        let metadata = RecordingMetadata(recording: result, annotations: annotations)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do { data = try encoder.encode(metadata) } catch {
            throw .file(path: metadataPath, step: "encode", reason: "\(error)")
        }
        try DurableFile.write(data, to: metadataPath)
        return result
    }

    /// Stops at once and removes the file, finished or not, and its metadata.
    public func cancel() {
        _ = waitForThread(setting: .cancelling)
        for file in [temporaryPath, path, metadataPath] { unlink(file) }
        DurableFile.syncDirectory(of: path)
    }

    private func waitForThread(setting phase: RecorderQueue.Phase) -> Result<RecordingResult, MediaError> {
        queue.condition.lock()
        defer { queue.condition.unlock() }
        if queue.phase == .recording || (phase == .cancelling && queue.phase == .finishing) {
            queue.phase = phase
            queue.condition.broadcast()
        }
        while !queue.threadDone { queue.condition.wait() }
        return queue.outcome ?? .failure(.notRecording)
    }
}
