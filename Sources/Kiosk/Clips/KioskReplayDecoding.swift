import Foundation
import Media
import Stage

/// The replay's decoder on the kiosk: one `ClipDecoder` thread for the clip open on the
/// Clips screen, with a lease on its files so they are not deleted under the replay;
/// what the thread decodes reaches the stage through the loop's mailbox. A Visual S/Z
/// clip whose cue export is ready replays that file, the letter in its pictures.
final class KioskReplayDecoding: ReplayDecoderPort {
    private let service: RecordingService
    private let mailbox: LoopMailbox
    private var open: (id: String, decoder: ClipDecoder, leases: [MediaLeases.Lease])?
    /// Hands a delivery to the stage (on the loop).
    var delivered: (String, ClipDecoder.Delivery) -> Void = { _, _ in }

    init(service: RecordingService, mailbox: LoopMailbox) {
        self.service = service
        self.mailbox = mailbox
    }

    deinit { open?.decoder.stop() }

    func open(_ id: String, soundRate: Int?) -> ReplaySource {
        if let open { close(open.id) }
        guard let clip = ClipFolder.clip(folder: service.settings.folder, id: id), clip.hasMedia else {
            delivered(id, ClipDecoder.Delivery(failure: .badInput("clip \(id) has no video")))
            return .recording
        }
        let source: ReplaySource = clip.cueExportPath == nil ? .recording : .cueExport
        let path = clip.cueExportPath ?? clip.mediaPath
        // The recording is leased even when its export plays: a clip is deleted whole.
        let leases = Array(Set([clip.mediaPath, path])).map { service.stored.leases.acquire($0, for: "replay") }
        let handle = LoopBound(self)
        let mailbox = mailbox
        let decoder = ClipDecoder(path: path, sound: soundRate != nil, soundRate: soundRate) {
            mailbox.post { handle.value?.ready(id) }
        }
        open = (id, decoder, leases)
        return source
    }

    func want(_ id: String, through position: Double) {
        guard let open, open.id == id else { return }
        open.decoder.want(through: position)
    }

    func close(_ id: String) {
        guard let open, open.id == id else { return }
        open.decoder.stop()
        for lease in open.leases { service.stored.leases.release(lease) }
        self.open = nil
    }

    /// The decoder has pictures (or sound, the end, a failure) for the stage.
    private func ready(_ id: String) {
        guard let open, open.id == id else { return }
        delivered(id, open.decoder.take())
    }
}
