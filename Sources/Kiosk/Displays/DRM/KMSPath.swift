import CDRM
import Glibc
import Stage

/// How a head is modeset, flipped and turned off: atomic commits where the driver
/// offers them, the legacy ioctls otherwise (or when rig.toml forces legacy).
protocol KMSPath {
    var name: String { get }
    /// Lights `head` with `framebuffer` in `head.mode`; blocking, no event.
    func enable(_ head: DRMHead, framebuffer: UInt32) throws(DisplaysError)
    /// Queues a flip to `framebuffer` with a page-flip event; returns 0 or an errno.
    func flip(_ head: DRMHead, framebuffer: UInt32, userData: UnsafeMutableRawPointer?) -> Int32
    /// Turns the head's CRTC off (its connector is gone, or the kiosk exits).
    func disable(_ head: DRMHead)
}

/// drmModeSetCrtc and drmModePageFlip.
struct LegacyKMS: KMSPath {
    let card: DRMCard
    var name: String { "legacy" }

    func enable(_ head: DRMHead, framebuffer: UInt32) throws(DisplaysError) {
        guard let crtc = head.crtcID, var connector = head.connectorID, var mode = head.mode?.info else {
            throw .kernel(call: "modeset", reason: "\(head.role) display has no CRTC or mode")
        }
        if drmModeSetCrtc(card.fd, crtc, framebuffer, 0, 0, &connector, 1, &mode) != 0 {
            throw card.errorText("drmModeSetCrtc(\(head.connectorName))", errno)
        }
    }

    func flip(_ head: DRMHead, framebuffer: UInt32, userData: UnsafeMutableRawPointer?) -> Int32 {
        guard let crtc = head.crtcID else { return EINVAL }
        return drmModePageFlip(card.fd, crtc, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), userData) == 0 ? 0 : errno
    }

    func disable(_ head: DRMHead) {
        guard let crtc = head.crtcID else { return }
        drmModeSetCrtc(card.fd, crtc, 0, 0, 0, nil, 0, nil)
    }
}

/// Atomic commits: the connector, CRTC and primary plane properties set together.
struct AtomicKMS: KMSPath {
    let card: DRMCard
    var name: String { "atomic" }

    private let connectorType = UInt32(DRM_MODE_OBJECT_CONNECTOR)
    private let crtcType = UInt32(DRM_MODE_OBJECT_CRTC)
    private let planeType = UInt32(DRM_MODE_OBJECT_PLANE)

    func enable(_ head: DRMHead, framebuffer: UInt32) throws(DisplaysError) {
        guard let crtc = head.crtcID, let connector = head.connectorID, let plane = head.planeID,
              let mode = head.mode else {
            throw .kernel(call: "atomic modeset", reason: "\(head.role) display has no CRTC, plane or mode")
        }
        let blob = try ModeBlob(card: card, mode: mode.info)
        guard let req = AtomicRequest(card: card) else { throw .kernel(call: "drmModeAtomicAlloc", reason: "out of memory") }
        try req.set(connector, type: connectorType, "CRTC_ID", UInt64(crtc))
        try req.set(crtc, type: crtcType, "MODE_ID", UInt64(blob.id))
        try req.set(crtc, type: crtcType, "ACTIVE", 1)
        try setPlane(req, plane: plane, crtc: crtc, framebuffer: framebuffer, mode: mode)
        let rc = req.commit(flags: UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET), userData: nil)
        if rc != 0 { throw card.errorText("atomic modeset of \(head.connectorName)", rc) }
        head.modeBlob = blob
    }

    func flip(_ head: DRMHead, framebuffer: UInt32, userData: UnsafeMutableRawPointer?) -> Int32 {
        guard let plane = head.planeID, let req = AtomicRequest(card: card) else { return EINVAL }
        do { try req.set(plane, type: planeType, "FB_ID", UInt64(framebuffer)) } catch { return EINVAL }
        return req.commit(flags: UInt32(DRM_MODE_PAGE_FLIP_EVENT) | UInt32(DRM_MODE_ATOMIC_NONBLOCK), userData: userData)
    }

    func disable(_ head: DRMHead) {
        guard let crtc = head.crtcID, let req = AtomicRequest(card: card) else { return }
        do {
            if let connector = head.connectorID { try req.set(connector, type: connectorType, "CRTC_ID", 0) }
            if let plane = head.planeID {
                try req.set(plane, type: planeType, "FB_ID", 0)
                try req.set(plane, type: planeType, "CRTC_ID", 0)
            }
            try req.set(crtc, type: crtcType, "MODE_ID", 0)
            try req.set(crtc, type: crtcType, "ACTIVE", 0)
        } catch { return }
        if req.commit(flags: UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET), userData: nil) != 0 {
            // A connector that vanished may refuse to be detached; the CRTC alone suffices.
            LegacyKMS(card: card).disable(head)
        }
        head.modeBlob = nil
    }

    private func setPlane(_ req: AtomicRequest, plane: UInt32, crtc: UInt32, framebuffer: UInt32,
                          mode: KernelMode) throws(DisplaysError) {
        let w = UInt64(mode.width), h = UInt64(mode.height)
        try req.set(plane, type: planeType, "FB_ID", UInt64(framebuffer))
        try req.set(plane, type: planeType, "CRTC_ID", UInt64(crtc))
        // Source rectangle in 16.16 fixed point, destination in pixels.
        try req.set(plane, type: planeType, "SRC_X", 0)
        try req.set(plane, type: planeType, "SRC_Y", 0)
        try req.set(plane, type: planeType, "SRC_W", w << 16)
        try req.set(plane, type: planeType, "SRC_H", h << 16)
        try req.set(plane, type: planeType, "CRTC_X", 0)
        try req.set(plane, type: planeType, "CRTC_Y", 0)
        try req.set(plane, type: planeType, "CRTC_W", w)
        try req.set(plane, type: planeType, "CRTC_H", h)
    }
}
