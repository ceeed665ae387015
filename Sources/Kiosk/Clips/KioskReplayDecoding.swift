import Foundation
import Media
import Stage

/// The replay's decoder on the kiosk: one `ClipDecoder` thread for the clip open on the
/// Clips screen, with a lease on its file so it is not deleted under the replay; what
/// the thread decodes reaches the stage through the loop's mailbox.
final class KioskReplayDecoding: ReplayDecoderPort {
    private let service: RecordingService
    private let mailbox: LoopMailbox
    private var open: (id: String, decoder: ClipDecoder, lease: MediaLeases.Lease)?
    /// Hands a delivery to the stage (on the loop).
    var delivered: (String, ClipDecoder.Delivery) -> Void = { _, _ in }

    init(service: RecordingService, mailbox: LoopMailbox) {
        self.service = service
        self.mailbox = mailbox
    }

    deinit { open?.decoder.stop() }

    func open(_ id: String, soundRate: Int?) {
        if let open { close(open.id) }
        guard let clip = ClipFolder.clip(folder: service.settings.folder, id: id), clip.hasMedia else {
            delivered(id, ClipDecoder.Delivery(failure: .badInput("clip \(id) has no video")))
            return
        }
        let lease = service.leases.acquire(clip.mediaPath, for: "replay")
        let handle = LoopBound(self)
        let mailbox = mailbox
        let decoder = ClipDecoder(path: clip.mediaPath, sound: soundRate != nil, soundRate: soundRate) {
            mailbox.post { handle.value?.ready(id) }
        }
        open = (id, decoder, lease)
    }

    func want(_ id: String, through position: Double) {
        guard let open, open.id == id else { return }
        open.decoder.want(through: position)
    }

    func close(_ id: String) {
        guard let open, open.id == id else { return }
        open.decoder.stop()
        service.leases.release(open.lease)
        self.open = nil
    }

    /// The decoder has pictures (or sound, the end, a failure) for the stage.
    private func ready(_ id: String) {
        guard let open, open.id == id else { return }
        delivered(id, open.decoder.take())
    }
}
