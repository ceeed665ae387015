import CALSA
import Foundation
import Stage

/// One open ALSA PCM: S16_LE interleaved, status timestamps on CLOCK_MONOTONIC.
/// Owns the snd_pcm_t and a status object; deinit closes both. Used by one thread.
package final class ALSAPCM {
    enum Direction { case playback, capture }

    package struct Setup: Equatable, Sendable, CustomStringConvertible {
        package var rate: Int
        package var channels: Int
        package var periodFrames: Int
        package var bufferFrames: Int
        package var description: String { "\(rate) Hz, \(channels) ch, period \(periodFrames), buffer \(bufferFrames) frames" }
    }

    /// A status reading: the time of the last hardware pointer update and the delay
    /// (frames between the application pointer and the DAC or ADC) at that time.
    struct Reading: Equatable {
        var timestamp: Double
        var delay: Int
        var state: snd_pcm_state_t
    }

    let device: String
    let direction: Direction
    private(set) var setup = Setup(rate: 0, channels: 0, periodFrames: 0, bufferFrames: 0)
    private var pcm: OpaquePointer?
    private var status: OpaquePointer?

    init(device: String, direction: Direction) throws(AudioDeviceError) {
        Self.silenceLibrary
        self.device = device
        self.direction = direction
        var handle: OpaquePointer?
        let stream = direction == .playback ? SND_PCM_STREAM_PLAYBACK : SND_PCM_STREAM_CAPTURE
        let opened = snd_pcm_open(&handle, device, stream, SND_PCM_NONBLOCK)
        guard opened >= 0, let handle else { throw .openFailed(device: device, code: opened) }
        pcm = handle
        var made: OpaquePointer?
        _ = snd_pcm_status_malloc(&made)
        status = made
    }

    /// Once per process: alsa-lib's own error printing off (every failure is reported
    /// with the device's name instead).
    private static let silenceLibrary: Void = rig_alsa_silence_library_errors()

    deinit {
        if let status { snd_pcm_status_free(status) }
        if let pcm { snd_pcm_close(pcm) }
    }

    /// Hardware and software parameters: the nearest the device offers to what is asked.
    /// `startPeriods`: playback starts once this many periods are written.
    func configure(rate: Int, channels: Int, periodFrames: Int, periods: Int,
                   startPeriods: Int? = nil) throws(AudioDeviceError) -> Setup {
        var hw: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&hw) >= 0, let hw else { throw .configureFailed(device: device, step: "memory", code: -ENOMEM) }
        defer { snd_pcm_hw_params_free(hw) }
        func check(_ code: Int32, _ step: String) throws(AudioDeviceError) {
            if code < 0 { throw .configureFailed(device: device, step: step, code: code) }
        }
        try check(snd_pcm_hw_params_any(pcm, hw), "its parameters")
        try check(snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "interleaved access")
        try check(snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE), "16-bit samples (S16_LE)")
        var channelCount = UInt32(channels)
        try check(snd_pcm_hw_params_set_channels_near(pcm, hw, &channelCount), "\(channels) channels")
        var actualRate = UInt32(rate)
        var dir: Int32 = 0
        try check(snd_pcm_hw_params_set_rate_near(pcm, hw, &actualRate, &dir), "\(rate) Hz")
        var period = snd_pcm_uframes_t(periodFrames)
        dir = 0
        try check(snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, &dir), "a period of \(periodFrames) frames")
        var buffer = snd_pcm_uframes_t(Int(period) * periods)
        try check(snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer), "a buffer of \(Int(period) * periods) frames")
        try check(snd_pcm_hw_params(pcm, hw), "the parameters")
        _ = snd_pcm_hw_params_get_period_size(hw, &period, &dir)
        _ = snd_pcm_hw_params_get_buffer_size(hw, &buffer)
        setup = Setup(rate: Int(actualRate), channels: Int(channelCount), periodFrames: Int(period), bufferFrames: Int(buffer))

        var sw: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&sw) >= 0, let sw else { throw .configureFailed(device: device, step: "memory", code: -ENOMEM) }
        defer { snd_pcm_sw_params_free(sw) }
        try check(snd_pcm_sw_params_current(pcm, sw), "its software parameters")
        try check(snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE), "timestamps")
        try check(snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC), "monotonic timestamps")
        try check(snd_pcm_sw_params_set_avail_min(pcm, sw, period), "avail_min")
        if let startPeriods {
            let threshold = snd_pcm_uframes_t(min(Int(buffer), Int(period) * startPeriods))
            try check(snd_pcm_sw_params_set_start_threshold(pcm, sw, threshold), "a start threshold")
        }
        try check(snd_pcm_sw_params(pcm, sw), "the software parameters")
        try check(snd_pcm_prepare(pcm), "prepare")
        return setup
    }

    /// The descriptors to poll for this PCM (events are then `pollReady`'s business).
    func pollDescriptors() -> [pollfd] {
        let count = snd_pcm_poll_descriptors_count(pcm)
        guard count > 0 else { return [] }
        var fds = [pollfd](repeating: pollfd(), count: Int(count))
        let filled = snd_pcm_poll_descriptors(pcm, &fds, UInt32(count))
        return Array(fds.prefix(Int(max(0, filled))))
    }

    /// Mangles polled events back into POLLIN/POLLOUT/POLLERR for this PCM.
    func pollEvents(_ fds: inout [pollfd]) -> Int16 {
        var events: UInt16 = 0
        guard !fds.isEmpty, snd_pcm_poll_descriptors_revents(pcm, &fds, UInt32(fds.count), &events) >= 0 else {
            return Int16(POLLERR)
        }
        return Int16(bitPattern: events)
    }

    var state: snd_pcm_state_t { snd_pcm_state(pcm) }

    func availableFrames() -> Int { Int(snd_pcm_avail_update(pcm)) }

    /// Writes interleaved frames; returns frames written or a negative errno.
    func write(_ samples: UnsafeBufferPointer<Int16>, frames: Int) -> Int {
        Int(snd_pcm_writei(pcm, samples.baseAddress, snd_pcm_uframes_t(frames)))
    }

    func read(into samples: UnsafeMutableBufferPointer<Int16>, frames: Int) -> Int {
        Int(snd_pcm_readi(pcm, samples.baseAddress, snd_pcm_uframes_t(frames)))
    }

    func start() -> Int32 { snd_pcm_start(pcm) }
    func prepare() -> Int32 { snd_pcm_prepare(pcm) }
    func drop() -> Int32 { snd_pcm_drop(pcm) }

    /// Timestamp and delay now; nil when the call fails. A zero timestamp (the first
    /// reading after a start, every time here) comes back as 0 for the caller to skip.
    func reading() -> Reading? {
        guard let status, snd_pcm_status(pcm, status) >= 0 else { return nil }
        var stamp = snd_htimestamp_t()
        snd_pcm_status_get_htstamp(status, &stamp)
        let time = Double(stamp.tv_sec) + Double(stamp.tv_nsec) / 1e9
        return Reading(timestamp: time, delay: Int(snd_pcm_status_get_delay(status)), state: snd_pcm_status_get_state(status))
    }
}
