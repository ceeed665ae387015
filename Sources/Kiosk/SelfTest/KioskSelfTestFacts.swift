import CLinux
import Foundation
import Glibc
import Stage

/// The self-test's questions answered by the kiosk's own devices: the DRM connectors
/// it drives, the camera feed it streams from, the sound threads it plays and hears
/// through, the recordings' disk, the kernel's clock state and the remote it serves.
final class KioskSelfTestFacts: SelfTestPort {
    private let config: RigConfig
    private let backend: any DisplayBackend
    private let devices: KioskDeviceReport
    private let soundOutput: KioskSoundOutput
    private let drmDirectory: String
    private let mailbox: LoopMailbox

    init(config: RigConfig, backend: any DisplayBackend, devices: KioskDeviceReport, soundOutput: KioskSoundOutput,
         mailbox: LoopMailbox, drmDirectory: String = "/dev/dri") {
        self.config = config
        self.mailbox = mailbox
        self.backend = backend
        self.devices = devices
        self.soundOutput = soundOutput
        self.drmDirectory = drmDirectory
    }

    func display(_ role: DisplayRole) -> DisplayFacts {
        let status = backend.status(of: role)
        let request = DisplayConfiguration(config.displays).mode(for: role)
        var why: String
        switch request {
        case .preferred:
            why = "the monitor's preferred mode"
        case let .size(width, height, _):
            why = status.mode.map { $0.width == width && $0.height == height } == true
                ? "as rig.toml asks ([displays.\(role.rawValue)] mode)"
                : "rig.toml asks for \(width)x\(height), which the monitor does not offer"
        }
        let kernel = kernelModes(connector: status.connector)
        let modes = kernel ?? status.mode.map { ["\($0)"] } ?? []
        if kernel == nil { why += " (\(status.connector) is not a DRM connector here: its one mode is listed)" }
        var facts = DisplayFacts(connector: status.connector, connected: status.connected || status.available, modes: modes,
                                 chosen: status.mode, why: why)
        facts.vblankCounter = kernel != nil
        return facts
    }

    /// The connector's modes as the kernel lists them (a read-only look, no master needed).
    private func kernelModes(connector name: String) -> [String]? {
        for path in DRMCard.devicePaths(directory: drmDirectory) {
            guard let card = try? DRMCard(path: path, allowAtomic: false, needsMaster: false),
                  let connector = (try? card.connectors())?.first(where: { $0.name == name }) else { continue }
            return DRMDeviceReport.modeList(connector.modes).split(separator: " ").map(String.init)
        }
        return nil
    }

    var camera: CameraFacts? {
        guard config.camera.enabled else { return nil }
        let settings = CameraSettings(config.camera, recording: config.recording)
        let feed = devices.cameraFeed
        var streaming: CameraFacts.Streaming?
        if case let .streaming(mode, _)? = feed?.state {
            streaming = CameraFacts.Streaming(format: "\(mode.format)", width: mode.width, height: mode.height,
                                              framesPerSecond: mode.framesPerSecond, emulated: mode.emulated)
        }
        let path = URL(fileURLWithPath: settings.devicePath).resolvingSymlinksInPath().path
        let listing = CameraList.cameras().first { $0.path == path }
        let offered = listing?.formats.map { format in
            "\(format.fourcc)\(format.emulated ? " (decoded by libv4l2)" : ""): " + format.sizes.prefix(4).joined(separator: " ")
        } ?? []
        return CameraFacts(device: config.camera.device, requestedWidth: settings.preferredWidth,
                           requestedHeight: settings.preferredHeight,
                           requestedFramesPerSecond: settings.preferredFramesPerSecond,
                           state: feed.map { "\($0.state)" } ?? "not opened", streaming: streaming, offered: offered)
    }

    var cameraCaptureCPU: Double? {
        devices.cameraFeed == nil ? nil : ThreadCPU.seconds(named: "rig-camera")
    }

    var outerTouchscreenName: String? {
        devices.inputDevices?.devices.first { $0.role == .outerTouchscreen }?.name
    }

    var sound: SoundFacts {
        let audio = devices.audio
        var inputProblem: String?
        if let state = audio?.inputState, case let .unavailable(reason) = state { inputProblem = reason }
        if audio == nil, !config.audio.input.isEmpty { inputProblem = "sound is off in this kiosk" }
        return SoundFacts(output: audio?.config.output ?? config.audio.output,
                          input: audio?.capture == nil ? "" : (audio?.config.input ?? ""),
                          outputProblem: soundOutput.unavailableReason, inputProblem: inputProblem)
    }

    func heard(since time: Double) -> HeardSound? {
        guard let ring = devices.audio?.captureRing else { return nil }
        let periods = ring.read(from: 0).periods.filter { $0.endTime > time }
        guard let first = periods.first else { return nil }
        return HeardSound(time: first.time, sampleRate: first.sampleRate, samples: periods.flatMap(\.samples))
    }

    func storage(done: @escaping (StorageFacts) -> Void) {
        let recordings = config.recordingsDirectory
        let folder = FileManager.default.fileExists(atPath: recordings) ? recordings : config.state.dir
        let perMinute = Self.bytesPerMinute(config)
        let reserved = Int64(config.recording.minFreeMB) << 20
        let reply = LoopCarried(done)
        let mailbox = mailbox
        let thread = Thread {
            var stats = statvfs()
            let looked = statvfs(folder, &stats) == 0
            let free = looked ? Int64(stats.f_bavail) * Int64(stats.f_frsize) : 0
            let total = looked ? Int64(stats.f_blocks) * Int64(stats.f_frsize) : 0
            let (sync, problem) = Self.syncCost(in: folder)
            let facts = StorageFacts(folder: folder, freeBytes: free, totalBytes: total, bytesPerMinute: perMinute,
                                     reservedBytes: reserved, syncSeconds: sync, writeProblem: problem)
            mailbox.post { reply.value(facts) }
        }
        thread.name = "rig-selftest-disk"
        thread.start()
    }

    /// A minute of a take: the configured bitrate, or for constant quality about 0.1 bit
    /// per pixel at CRF 23 (1080p30: about 6 Mbit/s), doubling every 6 steps down; plus
    /// the sound's AAC.
    static func bytesPerMinute(_ config: RigConfig) -> Int64 {
        let settings = CameraSettings(config.camera, recording: config.recording)
        let videoBits: Double
        if config.recording.bitrateKbps > 0 {
            videoBits = Double(config.recording.bitrateKbps) * 1000
        } else {
            let bitsPerPixel = 0.1 * pow(2, Double(23 - config.recording.quality) / 6)
            videoBits = Double(settings.preferredWidth * settings.preferredHeight) * settings.preferredFramesPerSecond * bitsPerPixel
        }
        return Int64((videoBits + 192_000) / 8 * 60)
    }

    /// The median of three 1 MiB writes with fsync in `folder`, or why it cannot write.
    static func syncCost(in folder: String) -> (Double?, String?) {
        let path = folder + "/.selftest-sync"
        defer { unlink(path) }
        let block = [UInt8](repeating: 0x5a, count: 1 << 20)
        var times: [Double] = []
        for _ in 0..<3 {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return (nil, String(cString: strerror(errno))) }
            let start = MonotonicTime.now()
            let written = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            let synced = fsync(fd)
            let code = errno
            close(fd)
            guard written == block.count, synced == 0 else {
                return (nil, written < 0 || synced != 0 ? String(cString: strerror(code)) : "No space left on device (short write)")
            }
            times.append(MonotonicTime.now() - start)
        }
        return (times.sorted()[1], nil)
    }

    func recorderTrial(seconds: Double, done: @escaping (RecorderCheck) -> Void) {
        guard config.recording.enabled else { return done(RecorderCheck(skipped: "recording is off ([recording] enabled = false)")) }
        guard let format = RecordingTap.videoFormat(of: devices.cameraFeed, shown: nil),
              case let .streaming(mode, _)? = devices.cameraFeed?.state else {
            return done(RecorderCheck(skipped: "no camera streams, so there is nothing to record"))
        }
        let recordings = config.recordingsDirectory
        let folder = FileManager.default.fileExists(atPath: recordings) ? recordings : config.state.dir
        let settings = config.recorderSettings
        let fps = mode.framesPerSecond
        let reply = LoopCarried(done)
        let mailbox = mailbox
        let thread = Thread {
            let check = KioskRecorderTrial.run(format: format, framesPerSecond: fps, settings: settings, folder: folder,
                                               seconds: seconds)
            mailbox.post { reply.value(check) }
        }
        thread.name = "rig-selftest-encode"
        thread.start()
    }

    var clock: ClockFacts {
        var error = 0
        let synchronised = rig_clock_synchronised(&error) != 0
        return ClockFacts(synchronised: synchronised, estimatedError: synchronised ? Double(error) / 1_000_000 : nil,
                          chrony: FileManager.default.fileExists(atPath: "/usr/sbin/chronyd"))
    }

    var network: NetworkFacts {
        let remote = config.remote
        let allowed = remote.allow.isEmpty ? "any address that can reach it (each phone pairs with its own credential)"
            : remote.allow.joined(separator: ", ")
        guard remote.enabled else { return NetworkFacts(enabled: false, address: nil, problem: nil, reachableFrom: allowed) }
        guard let service = devices.remote else {
            return NetworkFacts(enabled: true, address: nil, problem: "waiting for an address ([remote] bind = \"\(remote.bind)\")",
                                reachableFrom: allowed)
        }
        return NetworkFacts(enabled: true, address: "http://\(service.http.address)", problem: nil, reachableFrom: allowed)
    }
}
