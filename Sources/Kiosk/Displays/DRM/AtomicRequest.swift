import CDRM
import Glibc
import Stage

/// One atomic commit being built: object properties looked up by name. Owns the
/// drmModeAtomicReq.
final class AtomicRequest {
    private let card: DRMCard
    private let request: drmModeAtomicReqPtr
    private var propertyIDs: [UInt32: [String: UInt32]] = [:]

    init?(card: DRMCard) {
        guard let request = drmModeAtomicAlloc() else { return nil }
        self.card = card
        self.request = request
    }

    deinit { drmModeAtomicFree(request) }

    func set(_ object: UInt32, type: UInt32, _ name: String, _ value: UInt64) throws(DisplaysError) {
        guard let property = AtomicRequest.propertyID(card: card, object: object, type: type, name: name) else {
            throw .kernel(call: "atomic property \(name)", reason: "object \(object) has no such property")
        }
        if drmModeAtomicAddProperty(request, object, property, value) < 0 {
            throw card.errorText("drmModeAtomicAddProperty(\(name))", errno)
        }
    }

    /// Commits; `userData` comes back in the page-flip event when one is asked for.
    func commit(flags: UInt32, userData: UnsafeMutableRawPointer?) -> Int32 {
        drmModeAtomicCommit(card.fd, request, flags, userData) == 0 ? 0 : errno
    }

    static func propertyID(card: DRMCard, object: UInt32, type: UInt32, name: String) -> UInt32? {
        property(card: card, object: object, type: type, name: name)?.id
    }

    static func propertyValue(card: DRMCard, object: UInt32, type: UInt32, name: String) -> UInt64? {
        property(card: card, object: object, type: type, name: name)?.value
    }

    /// A KMS object's property by name: its id and current value.
    private static func property(card: DRMCard, object: UInt32, type: UInt32,
                                 name: String) -> (id: UInt32, value: UInt64)? {
        guard let props = drmModeObjectGetProperties(card.fd, object, type) else { return nil }
        defer { drmModeFreeObjectProperties(props) }
        for i in 0..<Int(props.pointee.count_props) {
            guard let prop = drmModeGetProperty(card.fd, props.pointee.props[i]) else { continue }
            defer { drmModeFreeProperty(prop) }
            let propName = withUnsafeBytes(of: prop.pointee.name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if propName == name { return (prop.pointee.prop_id, props.pointee.prop_values[i]) }
        }
        return nil
    }

    /// The primary plane that can scan out on the CRTC at `crtcIndex`.
    static func primaryPlane(card: DRMCard, crtcIndex: Int) -> UInt32? {
        guard let planes = drmModeGetPlaneResources(card.fd) else { return nil }
        defer { drmModeFreePlaneResources(planes) }
        for i in 0..<Int(planes.pointee.count_planes) {
            let id = planes.pointee.planes[i]
            guard let plane = drmModeGetPlane(card.fd, id) else { continue }
            let reaches = plane.pointee.possible_crtcs & (1 << UInt32(crtcIndex)) != 0
            drmModeFreePlane(plane)
            if reaches, propertyValue(card: card, object: id, type: UInt32(DRM_MODE_OBJECT_PLANE), name: "type")
                == UInt64(DRM_PLANE_TYPE_PRIMARY) {
                return id
            }
        }
        return nil
    }
}

/// A mode handed to the kernel as a property blob for an atomic MODE_ID. Destroys it.
final class ModeBlob {
    let id: UInt32
    private let fd: Int32

    init(card: DRMCard, mode: drmModeModeInfo) throws(DisplaysError) {
        var mode = mode
        var id: UInt32 = 0
        if drmModeCreatePropertyBlob(card.fd, &mode, MemoryLayout<drmModeModeInfo>.size, &id) != 0 {
            throw card.errorText("drmModeCreatePropertyBlob", errno)
        }
        self.id = id
        fd = card.fd
    }

    deinit { drmModeDestroyPropertyBlob(fd, id) }
}
