/// Where a frame meets the DAC or ADC on CLOCK_MONOTONIC, from one ALSA status
/// reading (its timestamp and delay) and the frames moved so far. Pure arithmetic,
/// kept apart so it is tested without a device.
enum AudioTiming {
    /// Playback: frame `k` of the stream (0 = the first ever written) reaches the DAC
    /// at tstamp + (k − (written − delay)) / rate, where `written − delay` is the
    /// frame at the DAC when the timestamp was taken.
    static func playbackTime(frame: Int64, written: Int64, delay: Int, timestamp: Double, rate: Int) -> Double {
        timestamp + Double(frame - (written - Int64(delay))) / Double(rate)
    }

    /// Capture: frame `j` (0 = the first ever read) was at the ADC at
    /// tstamp − (read + delay − j) / rate, `read + delay` being the frame at the ADC then.
    static func captureTime(frame: Int64, read: Int64, delay: Int, timestamp: Double, rate: Int) -> Double {
        timestamp - Double(read + Int64(delay) - frame) / Double(rate)
    }
}
