import Media
import Prompter

/// Where voice follow hears the talent: the kiosk's port (`KioskListening`) builds the
/// script's language model off the loop, runs the recogniser on its own thread, and
/// feeds it the room microphone (or a WAV file, `rig ctl listen`). What it hears comes
/// back as `StageEvent.followHeard`; the stage aligns it and steers the text.
package protocol ListeningPort: AnyObject {
    /// Why follow cannot listen in `language` here (unsupported, no model installed);
    /// nil when it can.
    func refusal(language: String) -> String?
    /// Starts listening for `words`; `.followListening` says when the recogniser is
    /// ready, `.followHeard` brings each hearing (or why it failed). A start replaces
    /// the one before it.
    func start(words: ScriptWords, language: String)
    func stop()
    /// `rig ctl listen`: the microphone taken from a 16-bit WAV file, in real time from
    /// now: its length and the loop time it started at, or why not.
    func listen(path: String) -> Result<(seconds: Double, started: Double), ListeningRefusal>
    /// The WAV file being heard, for `rig ctl status` (null when none).
    var fileStatus: JSONValue { get }
    /// The loop time of the end of the newest audio handed to the recogniser (nil: none yet).
    var heardUpTo: Double? { get }
}

package struct ListeningRefusal: Error, Equatable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// One hearing as the stage takes it: the recogniser's words, and the loop time of the
/// audio's time 0 when they were heard, so each word's time is on the stage's clock.
package struct FollowHearing: Equatable, Sendable {
    package let hearing: Hearing
    /// nil when no audio had been fed yet.
    package let origin: Double?

    package init(_ hearing: Hearing, origin: Double?) {
        self.hearing = hearing
        self.origin = origin
    }
}

/// A rig that cannot listen (`rig snapshot`, tests without a listener).
package final class NoListening: ListeningPort {
    package init() {}
    package func refusal(language: String) -> String? { "voice follow is not available here" }
    package func start(words: ScriptWords, language: String) {}
    package func stop() {}
    package func listen(path: String) -> Result<(seconds: Double, started: Double), ListeningRefusal> {
        .failure(ListeningRefusal("voice follow is not available here"))
    }
    package var fileStatus: JSONValue { .null }
    package var heardUpTo: Double? { nil }
}
