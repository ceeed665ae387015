import Durable
import Foundation
import Prompter
import Render
import Stage

/// `rig run`: the kiosk. Owns the event loop and the devices on it (displays, input,
/// camera, the scripts folder watcher), the control socket and the systemd handshake,
/// and wires them to the stage, which holds what the displays show. Whatever fails at
/// start (a display, the touchscreen, the socket, the scripts folder) degrades into a
/// banner on the inner display and a journal line; the kiosk always comes up.
final class KioskApp {
    let loop: EventLoop
    let config: RigConfig
    /// The app core: the prompter, the operator console, the scenes.
    let stage: RigStage
    let displays: DisplayService
    var displaysBackend: any DisplayBackend { displays.backend }
    /// The devices this kiosk opens itself; tests open none unless they ask.
    let devices: KioskDevices
    private let notifier = SystemdNotifier()
    private let stageOutput: KioskStageOutput
    private var signals: SignalWatcher?
    private var control: ControlServer?
    /// The network remote (KioskApp+Remote); nil unless `[remote] enabled`.
    var remote: RemoteService?
    private(set) var input: InputDevices?
    /// The window backend's keyboard, mouse and touch (KioskApp+Window); nil on the rig.
    var windowInput: WindowInput?
    private var scriptWatcher: ScriptFolderWatcher?
    private(set) var camera: CameraFeed?
    /// Sound out and in (KioskApp+Audio); nil with both turned off or not opened.
    var audio: AudioService?
    /// Prompter takes (KioskApp+Recording) and game attempts (through `gameRecording`).
    let recording: RecordingService?
    /// The game's recording port on `recording` (KioskApp+GameRecording).
    var gameRecording: KioskGameRecording?
    /// The sound output as the stage plays on it (replays, `rig ctl speak`).
    let soundOutput: KioskSoundOutput
    let statusFileWriter: DisplayStatusFile?
    /// Why the displays did not start, if they did not.
    private(set) var displaysFailed: DisplaysError?

    init(config: RigConfig, configProblems: [ConfigProblem], backend: DisplayService.Kind,
         headlessSizes: HeadlessSizes = HeadlessSizes(), statusPath: String? = nil, useSeat: Bool = false,
         devices: KioskDevices, clock: @escaping () -> Double = MonotonicTime.now) throws {
        MallocPolicy.apply()
        loop = try EventLoop(clock: clock)
        self.config = config
        self.devices = devices
        let stateDirectory = URL(fileURLWithPath: config.state.dir)
        try? FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        for directory in [stateDirectory, URL(fileURLWithPath: config.scriptsDirectory)] {
            for name in AtomicFile.removeLeftovers(in: directory) {
                KioskLog.info("removed \(name), left by a write that was cut short")
            }
        }
        var library: ScriptLibrary?
        var libraryProblem: String?
        do {
            library = try ScriptLibrary(root: URL(fileURLWithPath: config.scriptsDirectory),
                                        maxScriptBytes: config.prompter.maxScriptMB << 20,
                                        lineBreaks: LineBreaks(rawValue: config.prompter.lineBreaks) ?? .auto)
        } catch {
            libraryProblem = "scripts folder \(config.scriptsDirectory): \(error)"
        }
        let fonts = RigStage.loadFonts()
        var settings = RigStage.Settings(config: config)
        settings.stateDirectory = stateDirectory
        let loop = loop
        stage = RigStage(settings: settings, library: library, fonts: fonts.fonts, now: loop.clock,
                         schedule: { loop.addTimer(at: $0, $1) })
        let inner = config.displays.inner.drawingSize(headless: config.displays)
        let outer = config.displays.outer.drawingSize(headless: config.displays)
        displays = try DisplayService(kind: backend, configuration: DisplayConfiguration(config.displays),
                                  headlessSizes: [.inner: (headlessSizes.inner?.width ?? inner.width, headlessSizes.inner?.height ?? inner.height),
                                                  .outer: (headlessSizes.outer?.width ?? outer.width, headlessSizes.outer?.height ?? outer.height)],
                                  loop: loop, useSeat: useSeat, windowScale: headlessSizes.windowScale,
                                  log: { KioskLog.warning($0) })
        stageOutput = KioskStageOutput(backend: displays.backend, notifier: notifier)
        soundOutput = KioskSoundOutput(configured: config.audio.output)
        statusFileWriter = statusPath.map(DisplayStatusFile.init)
        recording = RecordingService(settings: Self.recordingSettings(config), clock: loop.clock,
                                     post: { [mailbox = loop.mailbox] in mailbox.post($0) },
                                     schedule: { loop.addTimer(at: $0, $1) })
        stage.handle(.problems(.config, configProblems.filter { $0.severity == .error }.map(\.description)))
        stage.handle(.problem(.library, libraryProblem))
        stage.handle(.problem(.fonts, fonts.problem))
        connectStage()
    }

    /// The stage's outputs reach the devices here.
    private func connectStage() {
        stage.readingSettingParser = { key, value, settings in
            ReadingSettingKeys.apply(key: key, value: value, to: &settings)
        }
        stage.output = stageOutput
    }

    /// Starts everything and runs until SIGTERM or SIGINT. Returns the exit status.
    func run() -> Int32 {
        start()
        // Windows that cannot open show nobody anything: say why and stop.
        if displays.backend is WindowBackend, let displaysFailed {
            KioskLog.error("\(displaysFailed)")
            shutdown()
            return 1
        }
        loop.run()
        shutdown()
        return 0
    }

    func start() {
        startSignals()
        startControl()
        startRemote()
        if devices.contains(.input) { startInput() }
        startScriptWatcher()
        if devices.contains(.camera) { startCamera() }
        if devices.contains(.audio) { startAudio() }
        startRecording()
        startWindowInput()
        do {
            try displays.start(delegate: self)
        } catch {
            stage.handle(.problem(.displays, "displays: \(error)"))
            displaysFailed = error
        }
        displaysBackend.setEnabled(config.displays.outer.enabled, for: .outer)
        startFollow()
        stage.start()
        notifier.ready()
        notifier.startWatchdog(on: loop)
        statusFileWriter?.keepWriting(displaysBackend, on: loop)
        KioskLog.notice("rig \(CLI.version) running")
    }

    func shutdown() {
        notifier.stopping()
        remote = nil
        stage.stop()
        stage.clips.close()
        recording?.finishForShutdown()
        MetadataWriter.shared.flush()
        camera?.stop()
        audio?.stop()
        displays.shutdown()
        statusFileWriter?.write(displaysBackend, state: "stopped")
        KioskLog.notice("rig stopped")
    }

    // MARK: start-up pieces

    private func startSignals() {
        do {
            let watcher = try SignalWatcher()
            signals = watcher
            loop.addReader(fd: watcher.fd, name: "signals") { [weak self] in
                guard let self else { return }
                for signal in watcher.drain() {
                    if signal == SIGHUP {
                        KioskLog.notice("SIGHUP ignored: rig.toml is read at start (systemctl restart rig applies it)")
                        continue
                    }
                    KioskLog.notice("stopping on \(signal == SIGINT ? "SIGINT" : "SIGTERM")")
                    self.loop.stop()
                }
            }
            // A thread started before the claim would take SIGTERM and die of it.
            let strays = ProcessSignals.threadsNotBlocking(SIGTERM)
            if !strays.isEmpty { KioskLog.error("signals: threads \(strays) do not block SIGTERM; a stop may kill the kiosk") }
        } catch {
            KioskLog.error("signals: \(error)")
        }
    }

    private func startControl() {
        do {
            control = try ControlServer(path: config.control.socket, loop: loop) { [weak self] request in
                guard let self else { return .failure("the kiosk is stopping") }
                let reply = handle(request)
                // Remote panels hear of a change made on the socket at once.
                remote?.changed()
                return reply
            }
        } catch {
            stage.handle(.problem(.controlSocket, "control socket: \(error)"))
        }
    }

    private func startInput() {
        let inner = config.displays.inner.drawingSize(headless: config.displays)
        let outer = config.displays.outer.drawingSize(headless: config.displays)
        let configuration = InputConfiguration(config: config, outerWidth: Double(outer.width),
                                               outerHeight: Double(outer.height), innerWidth: Double(inner.width),
                                               innerHeight: Double(inner.height))
        do {
            let opener: InputDeviceOpener = displays.seat.map { SeatInputDeviceOpener(seat: $0) } ?? DirectInputDeviceOpener()
            let devices = try InputDevices(loop: loop, configuration: configuration, opener: opener) { [weak self] event in
                self?.handle(event)
            }
            displays.seat?.onDisable.append { [weak devices] in devices?.suspend() }
            displays.seat?.onEnable.append { [weak devices] in devices?.resume() }
            input = devices
            stage.handle(.problem(.input.detail("keymap"), devices.keymapProblem.map { "input: \($0)" }))
        } catch {
            stage.handle(.problem(.input, "input: \(error)"))
        }
    }

    /// The camera runs on its own thread; frames and state changes arrive on the loop.
    private func startCamera() {
        guard config.camera.enabled else { return windowCameraChanged(nil) }
        do {
            let feed = try CameraFeed(settings: CameraSettings(config.camera, recording: config.recording),
                                      mailbox: loop.mailbox, recordingTap: recording?.tap)
            feed.onFrame = { [weak self] frame, preview in self?.stage.handle(.cameraPreview(frame, preview)) }
            feed.onStateChange = { [weak self, weak feed] state in
                KioskLog.notice("camera \(self?.config.camera.device ?? ""): \(state)")
                if case .streaming = state {} else { self?.recording?.cameraLost("\(state)") }
                self?.windowCameraChanged(state)
                guard let feed else { return }
                self?.stage.handle(.camera(CameraInput(frame: feed.latestFrame, message: state.previewMessage,
                                                       state: "\(state)", live: true)))
            }
            camera = feed
            stageOutput.camera = feed
            stage.handle(.camera(CameraInput(frame: nil, message: feed.state.previewMessage, state: "\(feed.state)",
                                             live: true)))
            feed.start()
            windowCameraChanged(feed.state)
        } catch {
            stage.handle(.problem(.camera, "camera \(config.camera.device): \(error)"))
        }
    }

    private func startScriptWatcher() {
        guard let library = stage.controller.library else { return }
        do {
            let watcher = try ScriptFolderWatcher(root: library.root)
            scriptWatcher = watcher
            loop.addReader(fd: watcher.fileDescriptor, name: "scripts folder") { [weak self] in
                guard watcher.drain() else { return }
                self?.stage.handle(.libraryChanged)
            }
            // An imported document converted between the first scan and this watch
            // (its cache file arrived unseen) is listed now; later ones wake the watcher.
            if library.skipped.contains(where: { $0.importedFrom != nil }) { stage.handle(.libraryChanged) }
        } catch {
            stage.handle(.problem(.library.detail("watch"), "scripts folder: \(error)"))
        }
    }

    /// The outer touchscreen mapped onto the outer display as it is now.
    func touchMapping(width: Int, height: Int) -> TouchMapping {
        TouchMapping(width: Double(width), height: Double(height),
                     rotation: TouchMapping.Rotation(rawValue: config.displays.outer.rotation) ?? .none,
                     calibration: config.touch.calibration)
    }

    /// `rig ctl status`: the stage's report with the devices' facts.
    func status(at now: Double) -> JSONValue {
        var inputStatus: [String: JSONValue] = [:]
        if case let .object(fields)? = input?.statusJSON ?? windowInput?.statusJSON { inputStatus = fields }
        inputStatus["touch"] = .optional(input?.devices.first { $0.role == .outerTouchscreen }?.name)
        var cameraFields: [String: JSONValue]?
        if let camera {
            var fields: [String: JSONValue] = [:]
            for (key, value) in camera.status.fields {
                fields[String(key.dropFirst("camera.".count))] = Double(value).map { .number($0) } ?? .string(value)
            }
            cameraFields = fields
        }
        return withRemoteStatus(withAudioStatus(stage.status(at: now, displays: displaysBackend.statuses, camera: cameraFields,
                                            cameraDevice: config.camera.device, input: inputStatus)))
    }
}

/// The devices a kiosk opens itself. `rig run` opens all; the headless tests open none
/// (their input and camera events are handed to the stage), unless a test asks.
struct KioskDevices: OptionSet {
    let rawValue: Int
    static let input = KioskDevices(rawValue: 1 << 0)
    static let camera = KioskDevices(rawValue: 1 << 1)
    static let audio = KioskDevices(rawValue: 1 << 2)
    static let all: KioskDevices = [.input, .camera, .audio]
}
