import Foundation

/// Ways to watch a kiosk from outside that tests and the virtual rig use: the display
/// status file and headless snapshots.
extension KioskApp {
    /// Rewrites the status file a few times a second while it is asked for.
    func startStatusFile() {
        guard statusFileWriter != nil else { return }
        writeStatusFile(state: "running")
        loop.addTimer(at: loop.clock() + 0.25) { [weak self] in self?.startStatusFile() }
    }

    func writeStatusFile(state: String) {
        guard let statusFileWriter else { return }
        var statuses: [DisplayRole: DisplayStatus] = [:]
        for role in DisplayRole.allCases { statuses[role] = displaysBackend.status(of: role) }
        var extra = ["state": state, "pid": "\(getpid())"]
        if let drm = displaysBackend as? DRMBackend { extra["kms"] = drm.pathName }
        statusFileWriter.write(statuses, extra: extra)
    }

    /// Headless only: runs until both displays have shown a frame, writes them as PPM
    /// (the format QEMU's screendump writes, so the virtual rig compares like with like).
    func snapshot(to directory: String, unplugging unplugged: DisplayRole? = nil) throws -> Int32 {
        guard let headless = displaysBackend as? HeadlessBackend else {
            throw CLIError.usage("--snapshot-dir needs --backend headless")
        }
        start()
        if let unplugged { headless.disconnect(unplugged) }
        let deadline = loop.clock() + 10
        while loop.clock() < deadline, DisplayRole.allCases.contains(where: {
            let status = displaysBackend.status(of: $0)
            return status.available && status.flips == 0
        }) {
            loop.runOnce(timeout: 0.05)
        }
        // Let frames asked for by late state changes (the other display arriving, the
        // layout finishing) reach the screens too.
        let settle = loop.clock() + 0.5
        while loop.clock() < settle { loop.runOnce(timeout: 0.05) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for role in DisplayRole.allCases {
            guard let screen = headless.screen(role) else { continue }
            let path = directory + "/\(role).ppm"
            try Data(screen.ppm()).write(to: URL(fileURLWithPath: path), options: .atomic)
            Log.stdout(path)
        }
        shutdown()
        return 0
    }
}
