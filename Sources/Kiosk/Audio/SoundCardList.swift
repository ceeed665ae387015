import CALSA

/// The sound cards ALSA sees and their PCM devices, for `rig devices`: the names
/// rig.toml's `[audio]` takes.
enum SoundCardList {
    struct PCM: Equatable {
        let device: Int
        let name: String
        let playback: Bool
        let capture: Bool
    }

    struct Card: Equatable {
        let index: Int
        let id: String
        let name: String
        let pcms: [PCM]
    }

    static func cards() -> [Card] {
        rig_alsa_silence_library_errors()
        var cards: [Card] = []
        var index: Int32 = -1
        while snd_card_next(&index) >= 0, index >= 0 {
            var ctl: OpaquePointer?
            guard snd_ctl_open(&ctl, "hw:\(index)", 0) >= 0, let ctl else { continue }
            defer { snd_ctl_close(ctl) }
            var info: OpaquePointer?
            guard snd_ctl_card_info_malloc(&info) >= 0, let info else { continue }
            defer { snd_ctl_card_info_free(info) }
            guard snd_ctl_card_info(ctl, info) >= 0 else { continue }
            let id = snd_ctl_card_info_get_id(info).map { String(cString: $0) } ?? "\(index)"
            let name = snd_ctl_card_info_get_name(info).map { String(cString: $0) } ?? ""
            cards.append(Card(index: Int(index), id: id, name: name, pcms: pcms(ctl)))
        }
        return cards
    }

    /// The card ALSA's "default" control opens (card 0 unless asound.conf says otherwise).
    static func defaultCardIndex() -> Int? {
        rig_alsa_silence_library_errors()
        var ctl: OpaquePointer?
        guard snd_ctl_open(&ctl, "default", 0) >= 0, let ctl else { return nil }
        defer { snd_ctl_close(ctl) }
        var info: OpaquePointer?
        guard snd_ctl_card_info_malloc(&info) >= 0, let info else { return nil }
        defer { snd_ctl_card_info_free(info) }
        guard snd_ctl_card_info(ctl, info) >= 0 else { return nil }
        return Int(snd_ctl_card_info_get_card(info))
    }

    private static func pcms(_ ctl: OpaquePointer) -> [PCM] {
        var found: [PCM] = []
        var device: Int32 = -1
        var info: OpaquePointer?
        guard snd_pcm_info_malloc(&info) >= 0, let info else { return [] }
        defer { snd_pcm_info_free(info) }
        while snd_ctl_pcm_next_device(ctl, &device) >= 0, device >= 0 {
            var name = ""
            func has(_ stream: snd_pcm_stream_t) -> Bool {
                snd_pcm_info_set_device(info, UInt32(device))
                snd_pcm_info_set_subdevice(info, 0)
                snd_pcm_info_set_stream(info, stream)
                guard snd_ctl_pcm_info(ctl, info) >= 0 else { return false }
                if name.isEmpty { name = snd_pcm_info_get_name(info).map { String(cString: $0) } ?? "" }
                return true
            }
            let playback = has(SND_PCM_STREAM_PLAYBACK)
            let capture = has(SND_PCM_STREAM_CAPTURE)
            found.append(PCM(device: Int(device), name: name, playback: playback, capture: capture))
        }
        return found
    }

    static func describe(_ cards: [Card]) -> [String] {
        guard !cards.isEmpty else { return ["no sound cards (no /dev/snd, or no ALSA driver loaded)"] }
        var lines: [String] = []
        for card in cards {
            lines.append("card \(card.index) \(card.id): \(card.name)")
            for pcm in card.pcms {
                let directions = [pcm.playback ? "playback" : nil, pcm.capture ? "capture" : nil].compactMap { $0 }
                lines.append("  hw:CARD=\(card.id),DEV=\(pcm.device)  \(pcm.name) (\(directions.joined(separator: ", ")))")
            }
        }
        lines.append("rig.toml [audio] takes these names, plughw:... for converted formats, or \"default\"")
        return lines
    }
}
