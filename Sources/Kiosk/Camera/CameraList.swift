import CV4L2
import Foundation
import Render
import Stage

/// A camera as `rig devices` lists it, so an operator can copy a stable name into
/// rig.toml.
struct CameraListing: Sendable, Equatable {
    struct Format: Sendable, Equatable {
        var fourcc: String
        var name: String
        /// libv4l2 converts into this format (e.g. from MJPEG); rig can still use it.
        var emulated: Bool
        /// rig converts this format itself (YUYV, NV12, I420, …).
        var usable: Bool
        /// "1920x1080@30,15 1280x720@30", largest first.
        var sizes: [String]
    }

    var path: String
    var byID: [String]
    var byPath: [String]
    var driver: String
    var card: String
    var bus: String
    var formats: [Format]
}

/// Finds the V4L2 capture devices: /dev/video* nodes that capture and stream (a UVC
/// camera also has a metadata node, which is left out), with their udev names.
enum CameraList {
    static func cameras(devFolder: String = "/dev") -> [CameraListing] {
        let nodes = ((try? FileManager.default.contentsOfDirectory(atPath: devFolder)) ?? [])
            .filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
        let byID = links(in: "\(devFolder)/v4l/by-id")
        let byPath = links(in: "\(devFolder)/v4l/by-path")
        return nodes.compactMap { node in
            let path = "\(devFolder)/\(node)"
            return listing(path: path, byID: byID[path] ?? [], byPath: byPath[path] ?? [])
        }
    }

    private static func listing(path: String, byID: [String], byPath: [String]) -> CameraListing? {
        guard let device = try? CameraDevice(path: path) else { return nil }
        var caps = v4l2_capability()
        guard (try? device.ioctl(rig_vidioc_querycap(), &caps, "VIDIOC_QUERYCAP")) != nil else { return nil }
        let formats = device.formatDescriptions().map { description -> CameraListing.Format in
            let sizes = device.frameSizes(description.pixelformat)
                .sorted { $0.0 * $0.1 > $1.0 * $1.1 }
                .map { size -> String in
                    let rates = device.frameRates(description.pixelformat, size.0, size.1)
                        .sorted(by: >).map { CameraStatus.decimal($0, places: $0.rounded() == $0 ? 0 : 2) }
                    return "\(size.0)x\(size.1)@\(rates.joined(separator: ","))"
                }
            return CameraListing.Format(
                fourcc: fourccText(description.pixelformat), name: text(description.description),
                emulated: description.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0,
                usable: CameraPixelFormat(fourcc: description.pixelformat) != nil, sizes: sizes)
        }
        return CameraListing(path: path, byID: byID, byPath: byPath, driver: text(caps.driver), card: text(caps.card),
                             bus: text(caps.bus_info), formats: formats)
    }

    /// Symlink name -> resolved device path, grouped by device path.
    private static func links(in folder: String) -> [String: [String]] {
        var found: [String: [String]] = [:]
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() {
            let link = "\(folder)/\(name)"
            guard let target = realpath(link, nil) else { continue }
            found[String(cString: target), default: []].append(name)
            free(target)
        }
        return found
    }

    /// A fixed-size C char array (v4l2_capability.card etc.) as a Swift string.
    static func text<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Human-readable lines for `rig devices`.
    static func describe(_ cameras: [CameraListing]) -> [String] {
        guard !cameras.isEmpty else { return ["cameras: none found"] }
        var lines: [String] = []
        for camera in cameras {
            lines.append("camera \(camera.path): \(camera.card) (driver \(camera.driver), \(camera.bus))")
            for name in camera.byID { lines.append("  by-id: \(name)") }
            for name in camera.byPath { lines.append("  by-path: \(name)") }
            for format in camera.formats {
                let notes = [format.emulated ? "via libv4l2" : nil, format.usable ? nil : "not used by rig"].compactMap { $0 }
                lines.append("  \(format.fourcc) \(format.name)\(notes.isEmpty ? "" : " [\(notes.joined(separator: ", "))]"): "
                    + format.sizes.joined(separator: " "))
            }
        }
        return lines
    }
}
