import CDRM
import Stage

/// One connector as the kernel reported it when probed: name, connection, modes and
/// the CRTCs that can reach it. Owns the drmModeConnector.
final class DRMConnector {
    let id: UInt32
    let name: String
    private let handle: drmModeConnectorPtr
    private let possibleCrtcMask: UInt32

    init?(card: DRMCard, id: UInt32) {
        guard let handle = drmModeGetConnector(card.fd, id) else { return nil }
        self.id = id
        self.handle = handle
        let typeName = drmModeGetConnectorTypeName(handle.pointee.connector_type)
            .map { String(cString: $0) } ?? "Unknown\(handle.pointee.connector_type)"
        // As the kernel's sysfs, kmsxx and modetest build it: HDMI-A-1, DP-2, Virtual-1.
        name = "\(typeName)-\(handle.pointee.connector_type_id)"
        possibleCrtcMask = drmModeConnectorGetPossibleCrtcs(card.fd, handle)
    }

    deinit { drmModeFreeConnector(handle) }

    var connected: Bool { handle.pointee.connection == DRM_MODE_CONNECTED }

    var modes: [KernelMode] {
        (0..<Int(handle.pointee.count_modes)).map { KernelMode(info: handle.pointee.modes[$0]) }
    }

    /// The CRTC currently driving this connector (through its encoder), if any.
    func currentCrtc(card: DRMCard) -> UInt32? {
        let encoderID = handle.pointee.encoder_id
        guard encoderID != 0, let encoder = drmModeGetEncoder(card.fd, encoderID) else { return nil }
        defer { drmModeFreeEncoder(encoder) }
        return encoder.pointee.crtc_id == 0 ? nil : encoder.pointee.crtc_id
    }

    /// Whether the CRTC at `index` in the card's resources can drive this connector.
    func canUse(crtcIndex index: Int) -> Bool {
        index < 32 && possibleCrtcMask & (1 << UInt32(index)) != 0
    }
}

/// A mode from the kernel, with the figures the kiosk decides on.
struct KernelMode: Sendable {
    let info: drmModeModeInfo

    var width: Int { Int(info.hdisplay) }
    var height: Int { Int(info.vdisplay) }
    var preferred: Bool { info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 }

    /// Refresh in millihertz from the pixel clock, as vrefresh alone rounds 59.94 to 60.
    var refreshMillihertz: Int {
        let total = Int(info.htotal) * Int(info.vtotal)
        guard total > 0 else { return Int(info.vrefresh) * 1000 }
        var mhz = Int(info.clock) * 1_000_000 / total
        if info.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { mhz *= 2 }
        if info.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { mhz /= 2 }
        return mhz
    }

    var videoMode: VideoMode {
        VideoMode(width: width, height: height, refreshMillihertz: refreshMillihertz)
    }
}
