import CALSA
import CLinux
import Foundation
import Stage
import Synchronization

/// Captures the configured input (the room microphone) on its own thread into an
/// `AudioCaptureRing`, each period stamped with when its first frame was at the ADC
/// (ALSA status timestamp and delay on CLOCK_MONOTONIC; a zero reading falls back to
/// the clock at the read, minus the period). Overruns are counted and capture goes
/// on; a vanished device is reopened when udev announces a sound card.
final class AudioCapture: Sendable {
    struct Settings: Sendable, Equatable {
        var device: String
        var rate = 48000
        /// Two, as the output asks, and the first kept (`mono`): a mono microphone
        /// gives one anyway (the count is a "near" request). A loopback card (snd-aloop)
        /// refuses to start a capture whose format differs from its playback's (EIO):
        /// one channel beside the output's two failed at the kiosk's start, and in one
        /// CI run kept failing on every retry.
        var channels = 2
        var periodFrames = 480
        /// A 320 ms buffer: capture latency costs nothing (every period is stamped),
        /// and an 80 ms one overran in the virtual rig.
        var periods = 32
        /// Seconds of sound the ring keeps.
        var ringSeconds = 30.0
        var retryInterval = 2.0
    }

    let settings: Settings
    let events: AudioEvents
    let ring: AudioCaptureRing
    private let thread: DeviceThread
    private let log: @Sendable (String) -> Void

    init(settings: Settings, events: AudioEvents, log: @escaping @Sendable (String) -> Void = { KioskLog.info($0) }) throws {
        self.settings = settings
        self.events = events
        self.log = log
        ring = AudioCaptureRing(capacityFrames: Int(settings.ringSeconds * Double(settings.rate)))
        thread = try DeviceThread(name: "rig-audio-in")
    }


    func start() { thread.start { [self] in run() } }

    @discardableResult
    func stop(timeout: Double = 3) -> Bool { thread.stop(timeout: timeout) }

    private var stopping: Bool { thread.stopping }

    private func run() {
        events.report(.starting)
        var frameCount: Int64 = 0
        let reopen = DeviceReopenLoop<AudioDeviceError>(thread: thread, monitor: AudioService.soundMonitor(),
                                                        retryInterval: settings.retryInterval,
                                                        announces: AudioService.announcesSoundDevice)
        reopen.run(device: { () throws(AudioDeviceError) in try captureUntilFailure(frameCount: &frameCount) },
                   failed: { error in
                       log("audio input: \(error)")
                       events.report(.unavailable(error.description))
                   },
                   reopening: { log("audio input: udev announced a sound device; opening \(settings.device) again") })
        events.report(.stopped)
    }

    private func captureUntilFailure(frameCount: inout Int64) throws(AudioDeviceError) {
        let pcm = try ALSAPCM(device: settings.device, direction: .capture)
        let setup = try pcm.configure(rate: settings.rate, channels: settings.channels,
                                      periodFrames: settings.periodFrames, periods: settings.periods)
        log("audio input \(settings.device): \(setup)")
        let started = pcm.start()
        guard started >= 0 else { throw .ioFailed(device: settings.device, call: "start", code: started) }
        events.report(.ready(setup, active: true))
        var buffer = [Int16](repeating: 0, count: setup.periodFrames * setup.channels)
        // Frames read since this stream started, for the timing arithmetic.
        var read: Int64 = 0
        while !stopping {
            var pcmFDs = pcm.pollDescriptors()
            var fds = pcmFDs + [pollfd(fd: thread.wakeFD, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, nfds_t(fds.count), 1000)
            if ready == 0 {
                if pcm.state == SND_PCM_STATE_DISCONNECTED { throw .disconnected(device: settings.device) }
                if pcm.state == SND_PCM_STATE_RUNNING { throw .ioFailed(device: settings.device, call: "poll", code: -ETIMEDOUT) }
                continue
            }
            for index in pcmFDs.indices { pcmFDs[index].revents = fds[index].revents }
            if pcm.pollEvents(&pcmFDs) & Int16(POLLERR | POLLNVAL) != 0, pcm.state == SND_PCM_STATE_DISCONNECTED {
                throw .disconnected(device: settings.device)
            }
            let got = buffer.withUnsafeMutableBufferPointer { pcm.read(into: $0, frames: setup.periodFrames) }
            if got == -Int(EAGAIN) { continue }
            if got == -Int(EPIPE) || got == -Int(ESTRPIPE) {
                events.xrun()
                guard pcm.prepare() >= 0, pcm.start() >= 0 else { throw .disconnected(device: settings.device) }
                read = 0
                continue
            }
            if got < 0 {
                if AudioDeviceError.meansGone(Int32(got)) || pcm.state == SND_PCM_STATE_DISCONNECTED {
                    throw .disconnected(device: settings.device)
                }
                throw .ioFailed(device: settings.device, call: "read", code: Int32(got))
            }
            read += Int64(got)
            let firstOfPeriod = read - Int64(got)
            let time: Double
            if let reading = pcm.reading(), reading.state == SND_PCM_STATE_RUNNING, reading.timestamp > 0 {
                time = AudioTiming.captureTime(frame: firstOfPeriod, read: read, delay: reading.delay,
                                               timestamp: reading.timestamp, rate: setup.rate)
            } else {
                time = MonotonicTime.now() - Double(got) / Double(setup.rate)
            }
            ring.append(CapturedPeriod(firstFrame: frameCount, time: time, sampleRate: setup.rate,
                                       samples: Self.mono(buffer, frames: got, channels: setup.channels)))
            frameCount += Int64(got)
        }
    }

    /// The first channel when the device insists on more than one.
    static func mono(_ buffer: [Int16], frames: Int, channels: Int) -> [Int16] {
        if channels == 1 { return Array(buffer.prefix(frames)) }
        return (0..<frames).map { buffer[$0 * channels] }
    }
}
