import CDRM
import Stage

/// What a CRTC showed before the kiosk took it (usually the text console), so a clean
/// exit can give it back instead of leaving a frozen last frame. Owns the drmModeCrtc.
final class SavedCrtcState {
    let crtcID: UInt32
    private let handle: drmModeCrtcPtr

    init?(card: DRMCard, crtcID: UInt32) {
        guard let handle = drmModeGetCrtc(card.fd, crtcID) else { return nil }
        self.crtcID = crtcID
        self.handle = handle
    }

    deinit { drmModeFreeCrtc(handle) }

    /// Shows the saved framebuffer again on `connector`, or turns the CRTC off when
    /// nothing was shown (or the saved framebuffer is gone).
    func restore(card: DRMCard, connector: UInt32) {
        var connectorID = connector
        var mode = handle.pointee.mode
        let crtc = handle.pointee
        if crtc.buffer_id != 0 && crtc.mode_valid != 0,
           drmModeSetCrtc(card.fd, crtcID, crtc.buffer_id, crtc.x, crtc.y, &connectorID, 1, &mode) == 0 {
            return
        }
        drmModeSetCrtc(card.fd, crtcID, 0, 0, 0, nil, 0, nil)
    }
}
