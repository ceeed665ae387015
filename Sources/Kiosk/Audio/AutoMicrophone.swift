import Foundation
import CALSA

/// `[audio] input = "auto"` (the default): the room microphone is the first capture
/// PCM of the card that plays (`[audio] output`'s card), else the first capture PCM of
/// any card; none at all leaves the rig without a microphone, said where it matters
/// (a recorded game is not ready, a take says it has no sound).
enum AutoMicrophone {
    static let keyword = "auto"

    /// `input` as the kiosk opens it: "auto" resolved on this machine now, anything
    /// else as written. "" when auto finds no capture device.
    static func resolve(input: String, output: String) -> String {
        guard input == keyword else { return input }
        return choose(output: output, defaultCard: SoundCardList.defaultCardIndex(), cards: SoundCardList.cards()) ?? ""
    }

    /// The ALSA name of the microphone auto picks among `cards`, nil with none.
    /// `plughw` so the card's own format is converted to what the recorder takes.
    static func choose(output: String, defaultCard: Int?, cards: [SoundCardList.Card]) -> String? {
        let playing = outputCard(output, defaultCard: defaultCard, cards: cards)
        let ordered = (playing.map { [$0] } ?? []) + cards.filter { $0.index != playing?.index }
        for card in ordered {
            if let pcm = card.pcms.first(where: \.capture) { return "plughw:CARD=\(card.id),DEV=\(pcm.device)" }
        }
        return nil
    }

    /// The card an output name plays on: `hw:`/`plughw:` with `CARD=ID` or an index,
    /// `default`/`sysdefault` the default card; nil for other names (an asound.conf
    /// device) and for "" (no sound out).
    static func outputCard(_ output: String, defaultCard: Int?, cards: [SoundCardList.Card]) -> SoundCardList.Card? {
        var name = output.trimmingCharacters(in: .whitespaces)
        if name == "default" || name == "sysdefault" { return cards.first { $0.index == defaultCard } }
        for prefix in ["plughw:", "hw:", "sysdefault:"] where name.hasPrefix(prefix) {
            name = String(name.dropFirst(prefix.count))
            let first = name.split(separator: ",").first.map(String.init) ?? ""
            let card = first.hasPrefix("CARD=") ? String(first.dropFirst(5)) : first
            return cards.first { $0.id == card || String($0.index) == card }
        }
        return nil
    }
}
