import Foundation
import Media
import Stage

/// The kiosk's side of one replay: the decoder thread, the lease that keeps the
/// media from being deleted under it, and the sound on the output device. Loop-owned;
/// the stage says what to do through `ClipRequest`s.
final class ClipReplayer {
    let id: String
    let decoder: ClipDecoder
    let lease: MediaLeases.Lease
    /// The clip's sound at the output's rate (resampled on the decoder's thread) as it
    /// comes, kept from the position on, and what the output is told of it.
    var feed = ReplaySoundFeed()
    /// The stream playing now: its generation and playback id with AudioService.
    var audioGeneration: Int?
    var audioID: Int?

    init(id: String, decoder: ClipDecoder, lease: MediaLeases.Lease) {
        self.id = id
        self.decoder = decoder
        self.lease = lease
    }
}

/// Carries the loop-side app into closures the decoder thread posts to the loop.
final class ReplayHandle: @unchecked Sendable {
    // @unchecked: touched only on the loop, where the posted closures run.
    weak var app: KioskApp?
    let id: String
    init(app: KioskApp, id: String) {
        self.app = app
        self.id = id
    }
}
