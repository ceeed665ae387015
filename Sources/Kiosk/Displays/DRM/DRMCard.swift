import CDRM
import Glibc
import Stage

/// One open DRM device (`/dev/dri/cardN`): the file descriptor, its capabilities and
/// master. Owns the descriptor: gives it back in deinit, by closing it or by handing
/// it back to the seat (libseat) that opened it.
final class DRMCard {
    let path: String
    let fd: Int32
    /// The driver accepted DRM_CLIENT_CAP_ATOMIC (and it was not refused by config).
    let atomic: Bool
    /// Flip timestamps are on CLOCK_MONOTONIC, the kiosk's one clock.
    let monotonicTimestamps: Bool
    private let release: (Int32) -> Void

    /// Opens `path` directly (root on a VT). `needsMaster: false` only looks (`rig devices`).
    convenience init(path: String, allowAtomic: Bool, needsMaster: Bool = true) throws(DisplaysError) {
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 { throw .openFailed(path: path, reason: String(cString: strerror(errno))) }
        try self.init(path: path, fd: fd, allowAtomic: allowAtomic, needsMaster: needsMaster) { close($0) }
    }

    /// Adopts a descriptor; `release` gives it back (libseat: close_device, then close).
    /// A seat's descriptor is made master by the seat, so `needsMaster` is false there.
    init(path: String, fd: Int32, allowAtomic: Bool, needsMaster: Bool,
         release: @escaping (Int32) -> Void) throws(DisplaysError) {
        self.path = path
        self.fd = fd
        self.release = release
        drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1)
        atomic = allowAtomic && drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0
        var value: UInt64 = 0
        monotonicTimestamps = drmGetCap(fd, UInt64(DRM_CAP_TIMESTAMP_MONOTONIC), &value) == 0 && value == 1
        if needsMaster && drmIsMaster(fd) == 0 && drmSetMaster(fd) != 0 {
            // Every stored property is set, so the throw runs deinit, which releases the
            // descriptor; releasing it here too closed it twice (the second time perhaps
            // the camera's or the loop's, reopened under the same number meanwhile).
            throw .masterHeld(path: path)
        }
    }

    deinit {
        release(fd)
    }

    var isMaster: Bool { drmIsMaster(fd) != 0 }

    /// The kernel driver's name (virtio_gpu, i915, amdgpu...).
    var driverName: String {
        guard let version = drmGetVersion(fd) else { return "unknown" }
        defer { drmFreeVersion(version) }
        return version.pointee.name.map { String(cString: $0) } ?? "unknown"
    }

    /// Connector and CRTC ids as they are now (connectors come and go with MST docks).
    func resources() throws(DisplaysError) -> (connectors: [UInt32], crtcs: [UInt32]) {
        guard let res = drmModeGetResources(fd) else {
            throw .notDRM(path: path)
        }
        defer { drmModeFreeResources(res) }
        let connectors = (0..<Int(res.pointee.count_connectors)).map { res.pointee.connectors[$0] }
        let crtcs = (0..<Int(res.pointee.count_crtcs)).map { res.pointee.crtcs[$0] }
        return (connectors, crtcs)
    }

    /// Every connector, probed now (this is what makes the kernel re-detect).
    func connectors() throws(DisplaysError) -> [DRMConnector] {
        try resources().connectors.compactMap { DRMConnector(card: self, id: $0) }
    }

    /// The cards on this machine, in order: /dev/dri/card0, card1, ...
    static func devicePaths(directory: String = "/dev/dri") -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var paths: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix("card") { paths.append(directory + "/" + name) }
        }
        return paths.sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
    }

    func errorText(_ call: String, _ code: Int32) -> DisplaysError {
        .kernel(call: call, reason: String(cString: strerror(code < 0 ? -code : code)))
    }
}
