import Foundation

/// The displays' status as a small JSON file, rewritten atomically (temp, fsync,
/// rename, fsync dir) when it changes, at most a few times a second. The virtual rig
/// reads the kiosk's state from it; `rig ctl status` replaces it once the app is wired.
final class DisplayStatusFile {
    let path: String
    private var lastWritten = ""

    init(path: String) { self.path = path }

    func write(_ statuses: [DisplayRole: DisplayStatus], extra: [String: String] = [:]) {
        var fields = DisplayRole.allCases.compactMap { role in statuses[role].map { "\"\(role)\":\($0.json)" } }
        fields += extra.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\"\($0.value)\"" }
        let text = "{" + fields.joined(separator: ",") + "}\n"
        guard text != lastWritten else { return }
        if writeAtomically(text) { lastWritten = text }
    }

    private func writeAtomically(_ text: String) -> Bool {
        let temp = path + ".tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        let bytes = Array(text.utf8)
        let ok = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count && fsync(fd) == 0
        close(fd)
        guard ok, rename(temp, path) == 0 else { return false }
        let dir = open((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent,
                       O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 { fsync(dir); close(dir) }
        return true
    }
}
