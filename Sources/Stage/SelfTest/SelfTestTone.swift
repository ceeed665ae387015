import Foundation

/// The self-test's tone and how it is found again in what the microphone heard.
package enum SelfTestTone {
    package static let frequency = 1000.0
    package static let seconds = 0.3
    /// -6 dBFS: loud enough to cross a room, not a shriek.
    package static let amplitude = 0.5

    /// The tone at `rate`, with 5 ms ramps so it starts and ends without a click.
    package static func samples(rate: Int) -> [Int16] {
        let count = Int(seconds * Double(rate))
        let ramp = max(1, rate / 200)
        return (0..<count).map { i in
            let edge = min(1, Double(min(i, count - 1 - i)) / Double(ramp))
            return Int16(amplitude * edge * 32767 * sin(2 * .pi * frequency * Double(i) / Double(rate)))
        }
    }

    package struct Found: Equatable, Sendable {
        /// From the tone's first sample at the DAC to its arrival at the ADC.
        package var latency: Double
        /// The tone's level as heard, dBFS.
        package var level: Double
    }

    /// The tone's onset in `heard`, played with its first sample at the DAC at `start`:
    /// the first 5 ms window whose 1 kHz amplitude (Goertzel) is above both -50 dBFS and
    /// eight times the room's level before the tone. nil: not heard.
    package static func find(in heard: HeardSound, playedAt start: Double) -> Found? {
        let window = max(8, heard.sampleRate / 200)
        guard heard.samples.count >= window * 4 else { return nil }
        var amplitudes: [(time: Double, amplitude: Double)] = []
        var index = 0
        while index + window <= heard.samples.count {
            let time = heard.time + Double(index) / Double(heard.sampleRate)
            amplitudes.append((time, goertzel(heard.samples[index..<(index + window)], rate: heard.sampleRate)))
            index += window
        }
        let before = amplitudes.filter { $0.time < start }.map(\.amplitude).sorted()
        let room = before.isEmpty ? 0 : before[before.count / 2]
        let threshold = max(pow(10, -50.0 / 20), room * 8)
        guard let onset = amplitudes.first(where: { $0.time >= start - 0.005 && $0.amplitude > threshold }) else { return nil }
        let peak = amplitudes.filter { $0.time >= onset.time && $0.time < onset.time + seconds }.map(\.amplitude).max() ?? onset.amplitude
        return Found(latency: max(0, onset.time - start), level: 20 * log10(max(peak, 1e-9)))
    }

    /// The amplitude (0–1 of full scale) of the tone's frequency in `samples`.
    static func goertzel(_ samples: ArraySlice<Int16>, rate: Int) -> Double {
        let k = 2 * cos(2 * .pi * frequency / Double(rate))
        var s1 = 0.0, s2 = 0.0
        for sample in samples {
            let s = Double(sample) / 32768 + k * s1 - s2
            s2 = s1
            s1 = s
        }
        let power = max(0, s1 * s1 + s2 * s2 - k * s1 * s2)
        return 2 * sqrt(power) / Double(samples.count)
    }
}
