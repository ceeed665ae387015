import Media

/// A Visual S/Z clip's cue as its JSON keeps it: the letter the participant saw, and
/// when on the clip's timeline (from the outer flip that first showed it, for the cue's
/// duration). The host's replay shows the letter on the pictures of that interval, the
/// same pictures the cue export burns it into.
package struct ClipCue: Equatable, Sendable {
    package var letter: Character
    package var interval: CueInterval

    package init(letter: Character, interval: CueInterval) {
        self.letter = letter
        self.interval = interval
    }
}
