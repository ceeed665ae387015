import Foundation
import Stage

/// Plays one sound and waits for it, outside the kiosk: `rig speak` and `rig bench`.
/// The same playback thread as the kiosk's; only the waiting differs (a semaphore
/// instead of the event loop's mailbox).
package final class BlockingPlayer {
    package struct Result: Equatable {
        package var setup: ALSAPCM.Setup?
        /// The first sample given to ALSA, and the first and last sample at the DAC.
        package var handedOver: Double?
        package var start: Double?
        package var end: Double?
        package var underruns = 0
    }

    private let playback: AudioPlayback
    private let wake = DispatchSemaphore(value: 0)
    private var result = Result()

    package init(device: String, volume: Float = 1) throws {
        let wake = wake
        let events = AudioEvents { wake.signal() }
        playback = try AudioPlayback(settings: AudioPlayback.Settings(device: device, volume: volume), events: events,
                                     log: { _ in })
        playback.start()
    }

    deinit { playback.stop() }

    /// Waits until the device is open (or fails to open).
    package func open(timeout: Double = 5) throws(AudioDeviceError) -> ALSAPCM.Setup {
        let deadline = MonotonicTime.now() + timeout
        while MonotonicTime.now() < deadline {
            for state in take().states {
                switch state {
                case let .ready(setup, _):
                    result.setup = setup
                    return setup
                case let .unavailable(reason): throw .unavailable(reason)
                default: break
                }
            }
            _ = wake.wait(timeout: .now() + 0.1)
        }
        throw .unavailable("sound device \"\(playback.settings.device)\" did not open within \(Int(timeout)) s")
    }

    /// Plays `sound` and returns once its last sample's DAC time is known.
    package func play(_ sound: PreparedSound, timeout: Double? = nil) throws(AudioDeviceError) -> Result {
        result = Result(setup: result.setup)
        playback.play(id: 1, sound: sound)
        let deadline = MonotonicTime.now() + (timeout ?? sound.duration + 5)
        while MonotonicTime.now() < deadline {
            let batch = take()
            result.underruns += batch.xruns
            if let time = batch.handedOver[1] { result.handedOver = time }
            for report in batch.playback {
                switch report {
                case let .started(_, time): result.start = time
                case let .ended(_, time):
                    result.end = time
                    return result
                case let .failed(_, reason): throw .unavailable("playback cut short: \(reason)")
                case .slipped: break
                }
            }
            _ = wake.wait(timeout: .now() + 0.1)
        }
        throw .unavailable("playback did not finish in time")
    }

    /// Waits until the DAC has played up to `time` (the end of what was played).
    package func waitUntil(_ time: Double) {
        while MonotonicTime.now() < time {
            _ = wake.wait(timeout: .now() + min(0.1, max(0.001, time - MonotonicTime.now())))
            _ = take()
        }
    }

    private func take() -> AudioEvents.Batch { playback.events.take() }
}
