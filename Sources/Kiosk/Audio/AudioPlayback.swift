import CALSA
import CLinux
import Foundation
import Stage
import Media
import Synchronization

/// Plays prepared sounds on the configured output, on a thread of its own so the
/// event loop never waits on ALSA. Sounds are mixed (`SoundMixer`) into a stream
/// that runs only while something plays; for each sound the thread reports, on
/// CLOCK_MONOTONIC, when its first and last sample reach the DAC, from ALSA's status
/// timestamp and delay (zero readings, as right after a start, are skipped).
///
/// When the device fails or is unplugged, sounds in flight are reported failed, the
/// state turns `.unavailable(reason)`, and the thread waits for udev to announce a
/// sound card (or `retryInterval`) and opens the device again.
final class AudioPlayback: Sendable {
    struct Settings: Sendable, Equatable {
        var device: String
        var rate = 48000
        var channels = 2
        /// 10 ms periods, 25 of them, and a stream starts once 10 are written. The
        /// prefill costs no latency (the periods are written in one burst, and the
        /// first sample plays right after the start), but it carries the stream over
        /// late wake-ups: 4- and 8-period buffers underran in the virtual rig (TCG on
        /// a busy host). A sound added to a running stream starts after what is
        /// already queued, up to 250 ms later.
        var periodFrames = 480
        var periods = 25
        var startPeriods = 10
        var volume: Float = 1
        var retryInterval = 2.0
    }

    private enum Command: Sendable {
        case play(id: Int, sound: PreparedSound)
        /// A stream: `sound` first, more with `append`, the end with `finish`.
        case stream(id: Int, sound: PreparedSound)
        case append(id: Int, sound: PreparedSound)
        case finish(id: Int)
        case cancel(id: Int)
    }

    /// A sound in flight: its first and last frame in the mixer's count, once known.
    private struct Flight {
        var firstFrame: Int64?
        var lastFrame: Int64?
        var startReported = false
        /// Predictions of the first sample's DAC time, one per status reading; the
        /// median is reported. Some drivers (snd-aloop, drivers without a precise
        /// pointer) move the hardware position in jiffies, a few ms at a time, while
        /// the timestamp is exact: one reading can be that far off, several agree.
        var startEstimates: [Double] = []
        var endEstimates: [Double] = []
        /// The clock when the block with the first and the last frame was written:
        /// the fallback for a device whose status never has a timestamp (ALSA's null).
        var firstWritten: Double?
        var lastWritten: Double?
        /// The clock just before the block with the first frame was written: no
        /// estimate of its start may come before it.
        var firstWriteBegan: Double?
    }

    /// Readings a DAC time is the median of.
    static let readingsPerEstimate = 5

    /// The running stream: frames written since it started, and the mixer frame it
    /// started at (stream frame = mixer frame − base).
    private struct Stream {
        var running = false
        var base: Int64 = 0
        var written: Int64 = 0
        var quietFrames = 0
        /// When its first period was written: a status reading older than this is the
        /// previous stream's (a prepared stream keeps the last timestamp).
        var startedAt = 0.0
    }

    let settings: Settings
    let events: AudioEvents
    private let commands = Mutex<[Command]>([])
    private let thread: DeviceThread
    private let log: @Sendable (String) -> Void

    init(settings: Settings, events: AudioEvents, log: @escaping @Sendable (String) -> Void = { KioskLog.info($0) }) throws {
        self.settings = settings
        self.events = events
        self.log = log
        thread = try DeviceThread(name: "rig-audio-out")
    }


    func start() { thread.start { [self] in run() } }

    /// Queues `sound` as clip `id`; reports come through `events`.
    func play(id: Int, sound: PreparedSound) { send(.play(id: id, sound: sound)) }
    /// A sound whose samples keep coming (a replay's, decoded ahead a piece at a time):
    /// `sound` now (it may be empty), `append` the rest in order, `finish` after the last.
    /// Samples handed over late keep their place, so the stream stays in step.
    func stream(id: Int, sound: PreparedSound) { send(.stream(id: id, sound: sound)) }
    func append(id: Int, sound: PreparedSound) { send(.append(id: id, sound: sound)) }
    func finish(id: Int) { send(.finish(id: id)) }
    func cancel(id: Int) { send(.cancel(id: id)) }

    private func send(_ command: Command) {
        commands.withLock { $0.append(command) }
        thread.wake()
    }

    @discardableResult
    func stop(timeout: Double = 3) -> Bool { thread.stop(timeout: timeout) }

    private var stopping: Bool { thread.stopping }

    private func run() {
        events.report(.starting)
        let monitor = AudioService.soundMonitor()
        let reopen = DeviceReopenLoop<AudioDeviceError>(thread: thread, monitor: monitor,
                                                        retryInterval: settings.retryInterval,
                                                        announces: AudioService.announcesSoundDevice)
        // A card's nodes arrive one event each; an open that comes too early fails the
        // same way and waits for the next one.
        reopen.run(device: { () throws(AudioDeviceError) in try playUntilFailure(monitor) },
                   failed: { error in
                       log("audio output: \(error)")
                       events.report(.unavailable(error.description))
                   },
                   waiting: { error in failQueued(reason: error.description) },
                   reopening: { log("audio output: udev announced a sound device; opening \(settings.device) again") })
        for command in takeCommands() {
            if case let .play(id, _) = command { events.report(.failed(id: id, reason: "the kiosk is stopping")) }
            if case let .stream(id, _) = command { events.report(.failed(id: id, reason: "the kiosk is stopping")) }
        }
        events.report(.stopped)
    }

    private func takeCommands() -> [Command] {
        thread.clearWake()
        return commands.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
    }

    private func playUntilFailure(_ monitor: UdevMonitor?) throws(AudioDeviceError) {
        let pcm = try ALSAPCM(device: settings.device, direction: .playback)
        let setup = try pcm.configure(rate: settings.rate, channels: settings.channels, periodFrames: settings.periodFrames,
                                      periods: settings.periods, startPeriods: settings.startPeriods)
        log("audio output \(settings.device): \(setup)")
        events.report(.ready(setup, active: false))
        var mixer = SoundMixer(channels: setup.channels, volume: settings.volume)
        var flights: [Int: Flight] = [:]
        var stream = Stream()
        var block: [Int16] = []
        defer {
            for id in flights.keys.sorted() { events.report(.failed(id: id, reason: "sound device \"\(settings.device)\" went away")) }
        }
        while !stopping {
            accept(takeCommands(), into: &mixer, flights: &flights, rate: setup.rate)
            if mixer.isIdle && flights.isEmpty && !stream.running {
                try waitIdle(pcm, monitor)
                continue
            }
            if !stream.running {
                stream = Stream(running: true, base: mixer.position, startedAt: MonotonicTime.now())
                events.report(.ready(setup, active: true))
            }
            let available = pcm.availableFrames()
            if available < 0 {
                try recover(pcm, code: Int32(available), stream: &stream, mixer: mixer)
                continue
            }
            if available < setup.periodFrames {
                try waitWritable(pcm)
                continue
            }
            let blockStart = mixer.position
            for event in mixer.render(frames: setup.periodFrames, into: &block) {
                switch event {
                case let .started(id, frame): flights[id]?.firstFrame = frame
                case let .ended(id, frame): flights[id]?.lastFrame = frame
                case .cancelled: break
                }
            }
            let writeBegan = MonotonicTime.now()
            let written = block.withUnsafeBufferPointer { pcm.write($0, frames: setup.periodFrames) }
            if written < 0 {
                try recover(pcm, code: Int32(written), stream: &stream, mixer: mixer)
                continue
            }
            let handedAt = MonotonicTime.now()
            for (id, flight) in flights {
                if let first = flight.firstFrame, first >= blockStart, first < blockStart + Int64(written) {
                    events.handedOver(id: id, at: handedAt)
                    flights[id]?.firstWritten = handedAt
                    flights[id]?.firstWriteBegan = writeBegan
                }
                if let last = flight.lastFrame, last >= blockStart, last < blockStart + Int64(written) {
                    flights[id]?.lastWritten = handedAt
                }
            }
            stream.written += Int64(written)
            report(&flights, stream: stream, pcm: pcm, rate: setup.rate)
            finishWithoutTimestamps(&flights, setup: setup)
            if mixer.isIdle && flights.isEmpty {
                // Everything real has been written: feed silence until it has played
                // out of the buffer, then stop the stream until the next sound.
                stream.quietFrames += written
                if stream.quietFrames >= setup.bufferFrames + setup.periodFrames {
                    _ = pcm.drop()
                    _ = pcm.prepare()
                    stream.running = false
                    events.report(.ready(setup, active: false))
                }
            } else {
                stream.quietFrames = 0
            }
        }
    }

    private func accept(_ commands: [Command], into mixer: inout SoundMixer, flights: inout [Int: Flight], rate: Int) {
        for command in commands {
            switch command {
            case let .play(id, sound), let .stream(id, sound):
                let open: Bool
                if case .stream = command { open = true } else { open = false }
                guard let samples = atRate(sound, rate, id: id) else { continue }
                guard mixer.add(id: id, samples: samples, open: open) != nil else {
                    events.report(.failed(id: id, reason: AudioDeviceError.clipNotPlayable("it is empty").description))
                    continue
                }
                flights[id] = Flight()
            case let .append(id, sound):
                if flights[id] != nil, let samples = atRate(sound, rate, id: id),
                   let slipped = mixer.append(id: id, samples: samples), slipped > 0 {
                    events.report(.slipped(id: id, seconds: Double(slipped) / Double(rate)))
                }
            case let .finish(id):
                mixer.finish(id: id)
            case let .cancel(id):
                if !mixer.cancel(id: id).isEmpty || flights[id] != nil {
                    flights[id] = nil
                    events.report(.failed(id: id, reason: "stopped"))
                }
            }
        }
    }

    /// The sound's samples at the device's rate; nil (reported failed) if they cannot be.
    private func atRate(_ sound: PreparedSound, _ rate: Int, id: Int) -> [Int16]? {
        guard sound.sampleRate != rate, !sound.samples.isEmpty else { return sound.samples }
        do {
            return try Resampler(from: sound.sampleRate, to: rate).convert(sound.samples)
        } catch {
            events.report(.failed(id: id, reason: AudioDeviceError.clipNotPlayable(error.description).description))
            return nil
        }
    }

    /// Turns the status reading into DAC times for the sounds whose frames are written.
    private func report(_ flights: inout [Int: Flight], stream: Stream, pcm: ALSAPCM, rate: Int) {
        guard let reading = pcm.reading(), reading.state == SND_PCM_STATE_RUNNING,
              reading.timestamp > 0, reading.timestamp >= stream.startedAt else { return }
        func time(_ frame: Int64) -> Double {
            AudioTiming.playbackTime(frame: frame - stream.base, written: stream.written, delay: reading.delay,
                                     timestamp: reading.timestamp, rate: rate)
        }
        for id in flights.keys.sorted() {
            guard var flight = flights[id] else { continue }
            if !flight.startReported, let first = flight.firstFrame, first - stream.base < stream.written {
                flight.startEstimates.append(time(first))
                // Reported once enough readings agree, or when the clip is all written.
                if flight.startEstimates.count >= Self.readingsPerEstimate || flight.lastFrame != nil {
                    // Never before the first sample was written: on snd-aloop, whose
                    // pointer moves in jiffies, the readings of a line that started the
                    // stream once put its start 1 ms before its write (the release build
                    // hands a short line over 0.5 ms after the request).
                    let predicted = Self.median(flight.startEstimates)
                    events.report(.started(id: id, time: max(predicted, flight.firstWriteBegan ?? predicted)))
                    flight.startReported = true
                }
            }
            if flight.startReported, let last = flight.lastFrame, last - stream.base < stream.written {
                flight.endEstimates.append(time(last))
                // The silence written after a clip keeps readings coming for its end.
                if flight.endEstimates.count >= Self.readingsPerEstimate {
                    events.report(.ended(id: id, time: Self.median(flight.endEstimates)))
                    flights[id] = nil
                    continue
                }
            }
            flights[id] = flight
        }
    }

    /// A clip written out long ago with too few status readings (a device without
    /// timestamps) is reported with what is known: the readings it has, else the clock
    /// at the write plus the buffer's fill, so its caller is never left waiting.
    private func finishWithoutTimestamps(_ flights: inout [Int: Flight], setup: ALSAPCM.Setup) {
        let now = MonotonicTime.now()
        let patience = Double(setup.bufferFrames + 10 * setup.periodFrames) / Double(setup.rate)
        let latency = Double(setup.periodFrames * settings.startPeriods) / Double(setup.rate)
        for (id, flight) in flights {
            guard let lastWritten = flight.lastWritten, now - lastWritten > patience else { continue }
            if !flight.startReported {
                let start = flight.startEstimates.isEmpty ? (flight.firstWritten ?? lastWritten) + latency : Self.median(flight.startEstimates)
                events.report(.started(id: id, time: start))
            }
            let end = flight.endEstimates.isEmpty ? lastWritten + latency : Self.median(flight.endEstimates)
            events.report(.ended(id: id, time: end))
            flights[id] = nil
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// An underrun restarts the stream (counted); a vanished device ends playback.
    private func recover(_ pcm: ALSAPCM, code: Int32, stream: inout Stream, mixer: SoundMixer) throws(AudioDeviceError) {
        if code == -EAGAIN { return }
        if code == -EPIPE || code == -ESTRPIPE {
            events.xrun()
            guard pcm.prepare() >= 0 else { throw .disconnected(device: settings.device) }
            // The stream starts over: frames count from the mixer's position now.
            stream.base = mixer.position
            stream.written = 0
            stream.startedAt = MonotonicTime.now()
            return
        }
        if AudioDeviceError.meansGone(code) || pcm.state == SND_PCM_STATE_DISCONNECTED {
            throw .disconnected(device: settings.device)
        }
        throw .ioFailed(device: settings.device, call: "write", code: code)
    }

    /// Waits for room in the buffer, a command or a stop request.
    private func waitWritable(_ pcm: ALSAPCM) throws(AudioDeviceError) {
        var pcmFDs = pcm.pollDescriptors()
        var fds = pcmFDs + [pollfd(fd: thread.wakeFD, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, nfds_t(fds.count), 500)
        if ready == 0 {
            // Half a second without room: a running stream that stopped moving.
            if pcm.state == SND_PCM_STATE_DISCONNECTED { throw .disconnected(device: settings.device) }
            if pcm.state == SND_PCM_STATE_RUNNING { throw .ioFailed(device: settings.device, call: "poll", code: -ETIMEDOUT) }
            return
        }
        for index in pcmFDs.indices { pcmFDs[index].revents = fds[index].revents }
        let events = pcm.pollEvents(&pcmFDs)
        if events & Int16(POLLERR | POLLNVAL) != 0 && pcm.state == SND_PCM_STATE_DISCONNECTED {
            throw .disconnected(device: settings.device)
        }
    }

    /// Idle with the device open: wakes for a command, a stop, or udev, and checks
    /// every second that the device is still there.
    private func waitIdle(_ pcm: ALSAPCM, _ monitor: UdevMonitor?) throws(AudioDeviceError) {
        var fds = [pollfd(fd: thread.wakeFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: monitor?.fd ?? -1, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 2, 1000)
        if let monitor, fds[1].revents != 0 { _ = monitor.drain { _ in false } }
        if pcm.state == SND_PCM_STATE_DISCONNECTED || pcm.reading() == nil {
            throw .disconnected(device: settings.device)
        }
    }

    /// Device away: sounds asked for meanwhile fail at once, with why.
    private func failQueued(reason: String) {
        for command in takeCommands() {
            if case let .play(id, _) = command { events.report(.failed(id: id, reason: reason)) }
            if case let .stream(id, _) = command { events.report(.failed(id: id, reason: reason)) }
        }
    }
}
