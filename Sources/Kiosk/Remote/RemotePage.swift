import Foundation

/// The phone remote's static files, served from one folder and nothing outside it:
/// no `..`, no hidden files, no symlink out, known types only.
package struct RemotePage {
    static let types = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
                        "css": "text/css; charset=utf-8", "svg": "image/svg+xml", "png": "image/png",
                        "json": "application/json", "webmanifest": "application/manifest+json"]
    static let maxFileBytes = 4 << 20

    let root: String

    /// `[remote] page_dir`, else the one shipped beside the binary (SharedData).
    package init(configured: String) {
        root = configured.isEmpty ? SharedData.here.remotePage.path : configured
    }

    package enum Lookup: Equatable {
        case file(Data, contentType: String)
        case refused
        case notFound
    }

    package func lookup(_ path: String) -> Lookup {
        let wanted = path == "/" ? "/index.html" : path
        let parts = wanted.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard wanted.hasPrefix("/"), !parts.isEmpty,
              parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") && !$0.contains("\\") && !$0.contains("\0") }) else {
            return .refused
        }
        guard let type = Self.types[(wanted as NSString).pathExtension.lowercased()] else { return .notFound }
        let base = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        let file = URL(fileURLWithPath: root + wanted).resolvingSymlinksInPath().path
        // A symlink inside the folder pointing out of it is as good as `..`.
        guard file.hasPrefix(base + "/") else { return .refused }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
              attributes[.type] as? FileAttributeType == .typeRegular,
              (attributes[.size] as? Int ?? Int.max) <= Self.maxFileBytes,
              let data = FileManager.default.contents(atPath: file) else { return .notFound }
        return .file(data, contentType: type)
    }
}
