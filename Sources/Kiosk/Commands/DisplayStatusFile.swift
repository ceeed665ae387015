import Durable
import Foundation
import Stage

/// The displays' status as a small JSON file, rewritten atomically (temp, fsync,
/// rename, fsync dir) when it changes, at most a few times a second. The virtual rig
/// reads the kiosk's state from it (the app and `--test-pattern` alike).
final class DisplayStatusFile {
    let path: String
    private var lastWritten = ""

    init(path: String) { self.path = path }

    /// The backend's displays now, with the process's state ("running", "stopped").
    func write(_ backend: any DisplayBackend, state: String) {
        write(backend.statuses, extra: backend.statusFacts.merging(["state": state, "pid": "\(getpid())"]) { $1 })
    }

    /// Rewrites the file four times a second while the loop runs.
    func keepWriting(_ backend: any DisplayBackend, on loop: EventLoop) {
        write(backend, state: "running")
        loop.addTimer(at: loop.clock() + 0.25) { [weak self] in self?.keepWriting(backend, on: loop) }
    }

    func write(_ statuses: [DisplayRole: DisplayStatus], extra: [String: String] = [:]) {
        var fields = DisplayRole.allCases.compactMap { role in statuses[role].map { "\"\(role)\":\($0.json)" } }
        fields += extra.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\"\($0.value)\"" }
        let text = "{" + fields.joined(separator: ",") + "}\n"
        guard text != lastWritten else { return }
        if writeAtomically(text) { lastWritten = text }
    }

    private func writeAtomically(_ text: String) -> Bool {
        (try? AtomicFile.write(Data(text.utf8), to: URL(fileURLWithPath: path))) != nil
    }
}

/// `--snapshot-dir`: runs the loop until every available display has shown a frame, then writes
/// what they show as PPM (the format QEMU's screendump writes, so the virtual rig
/// compares like with like). Only a backend that holds its pixels (headless) has any.
enum DisplaySnapshot {
    static func write(_ backend: any DisplayBackend, loop: EventLoop, to directory: String,
                      settle: Double) throws {
        let deadline = loop.clock() + 10
        while loop.clock() < deadline, DisplayRole.allCases.contains(where: {
            let status = backend.status(of: $0)
            return status.available && status.flips == 0
        }) {
            loop.runOnce(timeout: 0.05)
        }
        // Let frames asked for by late state changes (the other display arriving, the
        // layout finishing, a resumed position) reach the screens too: the pictures are
        // taken once no display has shown a new frame for `settle` seconds, so a loaded
        // machine that draws late still writes the settled frames, not the first ones.
        func shown() -> [UInt64] { DisplayRole.allCases.map { backend.status(of: $0).flips } }
        var last = shown()
        var quietSince = loop.clock()
        while loop.clock() < deadline + settle, loop.clock() - quietSince < settle {
            loop.runOnce(timeout: 0.05)
            let now = shown()
            if now != last { (last, quietSince) = (now, loop.clock()) }
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for role in DisplayRole.allCases {
            guard let image = backend.shownImagePPM(role) else { continue }
            let path = directory + "/\(role).ppm"
            try Data(image).write(to: URL(fileURLWithPath: path), options: .atomic)
            Log.stdout(path)
        }
    }
}
