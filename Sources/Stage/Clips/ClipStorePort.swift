/// The recordings folder and where clips can go, as the Clips screen and `rig ctl
/// clips` use them. The kiosk's port (`KioskClipStore`) reads the folder, the mounted
/// sticks and the export folder; the stage never touches a file. What changes by itself
/// (an export's progress, a take that ended) comes back as `StageEvent.clipsChanged`.
package protocol ClipStorePort: AnyObject {
    /// The clips, the export destinations and the progress of the export `exporting`
    /// (the console's last), as the Clips screen lists them.
    /// `currentGame`: the open game's session id, whose clips the Current game list shows.
    func listing(exporting: String?, currentGame: String?) -> ClipsInput
    /// `rig ctl clips list`: every clip with its files.
    var listJSON: JSONValue { get }
    /// `[recording] export_folder`, "" when none is set.
    var exportFolder: String { get }
    /// Deletes a clip's files (a file a replay or an export holds is refused).
    func delete(_ id: String) -> Result<Void, ClipRefusal>
    /// Copies a clip (its derived export when there is one) into `folder`: how it started.
    func export(_ id: String, to folder: String) -> Result<JSONValue, ClipRefusal>
    /// Makes a game clip's failed derived export again.
    func retryExport(_ id: String) -> Result<JSONValue, ClipRefusal>
    /// Starts ejecting the USB stick `name` (its label or mount point): synced and
    /// unmounted by systemd; how it ends comes with the listing.
    func eject(_ name: String) -> Result<JSONValue, ClipRefusal>
    /// Why clip `id` cannot be replayed (there is no such clip, or its media are gone).
    func refusal(replaying id: String) -> ClipRefusal
}

/// Why the recordings refused, in the operator's words.
package struct ClipRefusal: Error, Equatable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// A stage that records nothing (`rig snapshot`, tests without a store).
package final class NoClipStore: ClipStorePort {
    package init() {}
    package func listing(exporting: String?, currentGame: String?) -> ClipsInput { .none }
    package var listJSON: JSONValue { [] }
    package var exportFolder: String { "" }
    package func delete(_ id: String) -> Result<Void, ClipRefusal> { .failure(Self.refusal) }
    package func export(_ id: String, to folder: String) -> Result<JSONValue, ClipRefusal> { .failure(Self.refusal) }
    package func retryExport(_ id: String) -> Result<JSONValue, ClipRefusal> { .failure(Self.refusal) }
    package func eject(_ name: String) -> Result<JSONValue, ClipRefusal> { .failure(Self.refusal) }
    package func refusal(replaying id: String) -> ClipRefusal { Self.refusal }
    private static let refusal = ClipRefusal("recording is off ([recording] enabled = false in rig.toml)")
}

/// Decodes a clip for its replay on the console, off the stage's thread. The kiosk's
/// port (`KioskReplayDecoding`) leases the clip's file while it is open, so it is not
/// deleted under the replay; pictures and sound pieces come back as
/// `StageEvent.replayDelivery`.
package protocol ReplayDecoderPort: AnyObject {
    /// Starts decoding clip `id` from its start, its sound at `soundRate` (nil: no
    /// sound): its cue export when that is ready, else the recording; which one, it
    /// returns. A failure is delivered like the rest.
    func open(_ id: String, soundRate: Int?) -> ReplaySource
    /// Pictures and sound up to this clip position are wanted.
    func want(_ id: String, through position: Double)
    /// Stops the decoder and gives the lease back.
    func close(_ id: String)
}

/// The file of a clip a replay decodes.
package enum ReplaySource: String, Sendable {
    /// The recording as the camera saw it: a Visual S/Z cue is drawn over it on replay.
    case recording
    /// The derived `.cue.mp4`, the cue already burned into its pictures.
    case cueExport = "cue_export"
}

package final class NoReplayDecoder: ReplayDecoderPort {
    package init() {}
    package func open(_ id: String, soundRate: Int?) -> ReplaySource { .recording }
    package func want(_ id: String, through position: Double) {}
    package func close(_ id: String) {}
}
