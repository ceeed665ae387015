import Stage
/// `rig ctl status`'s `audio` section.
extension AudioService {
    var statusJSON: JSONValue {
        [
            "output": Self.device(config.output, outputState, counter: ("underruns", underruns)),
            "input": Self.device(config.input, inputState, counter: ("overruns", overruns),
                                 buffered: captureRing.map { Double($0.bufferedFrames) / Double(capture?.settings.rate ?? 48000) }),
            "voice": .string(config.voice),
            "rate": .int(config.rate),
            "volume": .int(config.volume),
            "played": .int(played),
            "failed": .int(failed),
            "last_playback": lastPlayback.map(Self.playback) ?? .null,
        ]
    }

    private static func device(_ name: String, _ state: AudioDeviceState?, counter: (String, Int),
                               buffered: Double? = nil) -> JSONValue {
        var fields: [String: JSONValue] = [
            "device": .string(name),
            "state": .string(state?.name ?? "off"),
            counter.0: .int(counter.1),
        ]
        if case let .unavailable(reason)? = state { fields["reason"] = .string(reason) }
        if case let .ready(setup, _)? = state {
            fields["sample_rate"] = .int(setup.rate)
            fields["channels"] = .int(setup.channels)
            fields["period_frames"] = .int(setup.periodFrames)
            fields["buffer_frames"] = .int(setup.bufferFrames)
        }
        if let buffered { fields["buffered_seconds"] = .number((buffered * 1000).rounded() / 1000) }
        return .object(fields)
    }

    private static func playback(_ p: Playback) -> JSONValue {
        let state = p.failure != nil ? "failed" : p.end != nil ? "played" : p.start != nil ? "playing" : "queued"
        return [
            "generation": .int(p.generation),
            "text": .optional(p.text),
            "duration": .number(p.duration),
            "state": .string(state),
            "reason": .optional(p.failure),
            "requested": .number(p.requested),
            "handed_over": p.handedOver.map { .number($0) } ?? .null,
            "start": p.start.map { .number($0) } ?? .null,
            "end": p.end.map { .number($0) } ?? .null,
        ]
    }
}
