import Prompter
import Render

/// Where the reading line is in the script's text, whatever the font, the size or the
/// margins: the word that starts the line at the reading line (from 0, numbered as saved
/// positions and voice follow number them), how far through that line the reading line
/// is, and how it moves in lines as this rig shows them. Another rig with its own
/// reading settings puts the same place on its reading line with `offset(in:)`; this is
/// what a follower rig tracks of its lead (README: several rigs, one script).
package struct ReadingAnchor: Equatable, Sendable {
    package var word: Int
    /// 0 with the top of the word's line at the reading line, towards 1 at its bottom.
    package var lineFraction: Double
    /// In this rig's lines a second: with the ramp and a countdown's delay, a follower
    /// knows the next moments exactly.
    package var motion: TransportMotion
    /// The same place as a continuous position in the text's scalars, and the scalars
    /// of the lead's line there (`TextLayout.textPosition(atY:)`): what a follower with
    /// other line breaks maps, so its target never jumps where the two layouts' lines
    /// start at different words. Nil from a lead that did not send it.
    package var textPosition: Double?
    package var lineScalars: Double?
    /// The lead's next knot ahead (where its lines' mean span changes) and the scalars a
    /// line spans after it: the lead's motion is extrapolated through it as the lead moves.
    package var nextKnotPosition: Double?
    package var nextLineScalars: Double?

    package init(word: Int, lineFraction: Double, motion: TransportMotion = .rest) {
        self.word = word
        self.lineFraction = lineFraction
        self.motion = motion
    }

    /// The anchor of scroll `offset` in `layout`, the text moving as `motion` says in px.
    package init(layout: TextLayout, offset: Double, motion: TransportMotion = .rest) {
        let height = max(layout.lineHeight, 1)
        word = layout.wordIndex(atY: offset)
        lineFraction = max(0, (offset - layout.y(ofWord: word)) / height)
        self.motion = motion.scaled(by: 1 / height)
        let text = layout.textPosition(atY: offset)
        textPosition = text.position
        lineScalars = text.span
        nextKnotPosition = text.next.position
        nextLineScalars = text.next.span
    }

    /// Where this anchor puts the reading line in `layout` `elapsed` seconds after it was
    /// taken, and how the lead moves from there: through the text position when the
    /// anchor has one, else through its word.
    ///
    /// The rate is the one half a ramp ahead: where the two layouts' line spans change
    /// (a knot of either), the follower's ramp to the new rate is centred on the change
    /// and leaves no lag, where one begun at the change would fall half a ramp behind.
    package func place(in layout: TextLayout, after elapsed: Double) -> LeadPlace {
        let height = layout.lineHeight
        let lines = motion.distance(after: elapsed)
        let heading = motion.targetRate
        let rampLeft = motion.rampLeft(after: elapsed), startsIn = motion.startsIn(after: elapsed)
        guard textPosition != nil, lineScalars != nil else {
            return LeadPlace(offset: offset(in: layout) + lines * height, targetRate: heading * height, rampLeft: rampLeft,
                             startsIn: startsIn)
        }
        let here = layout.y(ofTextPosition: textPosition(afterLines: lines).position)
        let soon = textPosition(afterLines: motion.distance(after: elapsed + PrompterEngine.rampDuration / 2))
        let there = layout.y(ofTextPosition: soon.position)
        return LeadPlace(offset: here.y, targetRate: heading * soon.scalars / there.span * height, rampLeft: rampLeft,
                         startsIn: startsIn)
    }

    /// The lead's text position `lines` of its lines past the anchor, and the scalars a
    /// line spans there: through its next knot when the anchor names it.
    func textPosition(afterLines lines: Double) -> (position: Double, scalars: Double) {
        let start = textPosition ?? 0, scalars = lineScalars ?? 1
        guard let knot = nextKnotPosition, let after = nextLineScalars, knot > start else {
            return (start + lines * scalars, scalars)
        }
        let toKnot = (knot - start) / scalars
        return lines <= toKnot ? (start + lines * scalars, scalars) : (knot + (lines - toKnot) * after, after)
    }

    /// The scroll offset that puts the same place on `layout`'s reading line.
    package func offset(in layout: TextLayout) -> Double {
        layout.y(ofWord: word) + lineFraction * layout.lineHeight
    }

    /// `prompter.anchor` in the status and the remote's live state, with the wall-clock
    /// time it was taken at (seconds since 1970: both rigs' clocks are kept by chrony)
    /// and the SHA-256 of the script's text.
    package func json(wallTime: Double, scriptHash: String) -> JSONValue {
        ["word": .int(word), "line_fraction": .number((lineFraction * 10_000).rounded() / 10_000),
         "lines_per_second": .number((motion.rate * 10_000).rounded() / 10_000),
         "target_lines_per_second": .number((motion.targetRate * 10_000).rounded() / 10_000),
         "ramp_seconds": .number((motion.rampSeconds * 10_000).rounded() / 10_000),
         "starts_in": .number((motion.delay * 10_000).rounded() / 10_000),
         "text_position": textPosition.map { .number(($0 * 1000).rounded() / 1000) } ?? .null,
         "line_scalars": lineScalars.map { .number($0) } ?? .null,
         "next_knot_position": nextKnotPosition.map { .number(($0 * 1000).rounded() / 1000) } ?? .null,
         "next_line_scalars": nextLineScalars.map { .number($0) } ?? .null,
         "wall_time": .number((wallTime * 1000).rounded() / 1000), "script_hash": .string(scriptHash)]
    }
}

/// Where a lead's anchor puts the reading line in a follower's layout at one moment, and
/// the lead's motion from there in that layout's px: the rate its transport heads for
/// (after a countdown, if one runs), the seconds left of its ramp, and of its countdown.
package struct LeadPlace: Equatable, Sendable {
    package var offset: Double
    package var targetRate: Double
    package var rampLeft: Double
    package var startsIn: Double
}

/// A lead rig's anchor as a follower reads it from the lead's live state: the place, the
/// lead's wall-clock time of it and the hash of the text it is in.
package struct LeadAnchor: Equatable, Sendable {
    package var anchor: ReadingAnchor
    package var wallTime: Double
    package var scriptHash: String

    package init(anchor: ReadingAnchor, wallTime: Double, scriptHash: String) {
        self.anchor = anchor
        self.wallTime = wallTime
        self.scriptHash = scriptHash
    }

    /// `anchor` of the live state; nil when it is null or malformed.
    package init?(json: JSONValue?) {
        guard let json, let word = json["word"]?.numberValue, word >= 0, word < 1e9,
              let fraction = json["line_fraction"]?.numberValue, let rate = json["lines_per_second"]?.numberValue,
              let wall = json["wall_time"]?.numberValue, let hash = json["script_hash"]?.stringValue,
              fraction.isFinite, rate.isFinite, wall.isFinite else { return nil }
        let target = json["target_lines_per_second"]?.numberValue ?? rate
        let ramp = json["ramp_seconds"]?.numberValue ?? 0
        guard target.isFinite, ramp.isFinite else { return nil }
        let delay = json["starts_in"]?.numberValue.flatMap { $0.isFinite ? min(max($0, 0), 60) : nil } ?? 0
        var anchor = ReadingAnchor(word: Int(word), lineFraction: min(max(fraction, 0), 1),
                                   motion: TransportMotion(rate: max(0, rate), targetRate: max(0, target),
                                                           rampSeconds: min(max(ramp, 0), 1), delay: delay))
        if let position = json["text_position"]?.numberValue, let span = json["line_scalars"]?.numberValue,
           position.isFinite, position >= 0, span.isFinite, span >= 1 {
            anchor.textPosition = position
            anchor.lineScalars = span
            if let knot = json["next_knot_position"]?.numberValue, let after = json["next_line_scalars"]?.numberValue,
               knot.isFinite, knot >= position, after.isFinite, after >= 1 {
                anchor.nextKnotPosition = knot
                anchor.nextLineScalars = after
            }
        }
        self.init(anchor: anchor, wallTime: wall, scriptHash: hash)
    }
}
