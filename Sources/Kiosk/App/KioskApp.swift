import Durable
import Foundation
import Prompter
import Render
import Stage

/// `rig run`: the kiosk's composition root. It opens the devices on the event loop
/// (displays, input, camera, sound, the scripts folder watcher, the recordings), the
/// control socket, the network remote and the systemd handshake, and wires each to the
/// stage through its port or its events; the stage holds every behaviour. Whatever
/// fails at start (a display, the touchscreen, the socket, the scripts folder) becomes
/// a banner line on the inner display and a journal line; the kiosk always comes up.
final class KioskApp {
    let loop: EventLoop
    let config: RigConfig
    /// The app core: the prompter, the operator console, the game, the scenes.
    let stage: RigStage
    let recording: RecordingService?
    private let displays: DisplayService
    var displaysBackend: any DisplayBackend { displays.backend }
    /// The devices this kiosk opens itself; tests open none unless they ask.
    private let devices: KioskDevices
    private let notifier = SystemdNotifier()
    private let stageOutput: KioskStageOutput
    private let deviceReport: KioskDeviceReport
    private let sound: KioskSound
    private let statusFileWriter: DisplayStatusFile?
    private var signals: SignalWatcher?
    private var control: ControlServer?
    private var remote: RemoteHost?
    private let input: KioskInput
    private var scriptWatcher: ScriptFolderWatcher?
    private var leadLink: LeadLink?
    private(set) var camera: CameraFeed?
    private var recordingWired: RecordingWiring.Wired?
    /// Why the displays did not start, if they did not.
    private var displaysFailed: DisplaysError?

    init(config: RigConfig, configProblems: [ConfigProblem], backend: DisplayService.Kind,
         headlessSizes: HeadlessSizes = HeadlessSizes(), statusPath: String? = nil, useSeat: Bool = false,
         devices: KioskDevices, clock: @escaping () -> Double = MonotonicTime.now) throws {
        MallocPolicy.apply()
        loop = try EventLoop(clock: clock)
        self.config = config
        self.devices = devices
        let stateDirectory = URL(fileURLWithPath: config.state.dir)
        try? AtomicFile.createOwnerOnlyFolder(stateDirectory)
        if RigPaths.defaults().personal && config.prompter.scriptsDir.isEmpty {
            SharedData.here.seedExamples(into: config.scriptsDirectory)
        }
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
                                        lineBreaks: LineBreaks(rawValue: config.prompter.lineBreaks) ?? .auto,
                                        directions: DirectionMarks(rawValue: config.prompter.directions) ?? .brackets)
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
        deviceReport = KioskDeviceReport(backend: displays.backend, config: config)
        sound = KioskSound(config: config.audio)
        input = KioskInput(loop: loop, config: config, stage: stage, deviceReport: deviceReport)
        statusFileWriter = statusPath.map(DisplayStatusFile.init)
        recording = RecordingService(settings: RecordingService.Settings(config), clock: loop.clock,
                                     post: { [mailbox = loop.mailbox] in mailbox.post($0) },
                                     schedule: { loop.addTimer(at: $0, $1) })
        stage.output = stageOutput
        stage.devices = deviceReport
        stage.sound = sound.output
        stage.selfTests.port = KioskSelfTestFacts(config: config, backend: displays.backend, devices: deviceReport,
                                                  soundOutput: sound.output, mailbox: loop.mailbox)
        stage.readingSettingParser = { key, value, settings in ReadingSettingKeys.apply(key: key, value: value, to: &settings) }
        stage.handle(.problems(.config, configProblems.filter { $0.severity == .error }.map(\.description)))
        stage.handle(.problem(.library, libraryProblem))
        stage.handle(.problem(.fonts, fonts.problem))
    }

    /// Starts everything and runs until SIGTERM or SIGINT. Returns the exit status.
    func run() -> Int32 {
        start()
        if displaysBackend.stopsWhenDisplaysFail, let displaysFailed {
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
        // Before the displays let go (DisplayService's observer is first in the list),
        // so the game hears the VT switch and not a lost display.
        displays.seat?.onDisable.insert({ [weak self] in self?.stage.handle(.switchedAway) }, at: 0)
        startControl()
        startRemote()
        if devices.contains(.input) { input.startDevices(seat: displays.seat) }
        startScriptWatcher()
        if devices.contains(.camera) { startCamera() }
        if devices.contains(.audio),
           let noMicrophone = sound.start(loop: loop, stage: stage, deviceReport: deviceReport) {
            recording?.noMicrophone = noMicrophone
        }
        startRecording()
        startFollow()
        leadLink = LeadLink.start(for: stage, config: config.followRig, mailbox: loop.mailbox)
        input.startWindowInput(from: displaysBackend)
        do {
            try displays.start(delegate: self)
        } catch {
            stage.handle(.problem(.displays, "displays: \(error)"))
            displaysFailed = error
        }
        displaysBackend.setEnabled(config.displays.outer.enabled, for: .outer)
        stage.start()
        notifier.ready()
        notifier.startWatchdog(on: loop)
        statusFileWriter?.keepWriting(displaysBackend, on: loop)
        KioskLog.notice("rig \(CLI.version) running")
    }

    func shutdown() {
        notifier.stopping()
        remote?.stop()
        remote = nil
        leadLink?.stop()
        stage.stop()
        // A converter still running dies now, with its process group, not after the kiosk.
        stage.controller.library?.importer.stop()
        stage.clips.close()
        recording?.finishForShutdown()
        MetadataWriter.shared.flush()
        camera?.stop()
        sound.stop()
        displays.shutdown()
        statusFileWriter?.write(displaysBackend, state: "stopped")
        KioskLog.notice("rig stopped")
    }

    /// `rig run --backend headless --snapshot-dir`: the kiosk until both displays have
    /// shown a frame, then what they show as PPM files.
    func snapshot(to directory: String, unplugging unplugged: DisplayRole? = nil) throws -> Int32 {
        start()
        if let unplugged { displaysBackend.simulateUnplug(unplugged) }
        try DisplaySnapshot.write(displaysBackend, loop: loop, to: directory, settle: 0.5)
        shutdown()
        return 0
    }

    /// The input side's events, routed to the displays they belong to.
    func handle(_ event: InputEvent) { input.handle(event) }

    // MARK: start-up pieces

    private func startSignals() {
        do {
            let watcher = try SignalWatcher()
            signals = watcher
            loop.addReader(fd: watcher.fd, name: "signals") { [weak self] in
                for signal in watcher.drain() {
                    if signal == SIGHUP {
                        KioskLog.notice("SIGHUP ignored: rig.toml is read at start (systemctl restart rig applies it)")
                        continue
                    }
                    KioskLog.notice("stopping on \(signal == SIGINT ? "SIGINT" : "SIGTERM")")
                    self?.loop.stop()
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
                // Remote panels hear of a change made here as of any other: the stage says so.
                return stage.handle(request)
            }
        } catch {
            stage.handle(.problem(.controlSocket, "control socket: \(error)"))
        }
    }

    /// `[remote]`: the network remote, when rig.toml turns it on (RemoteHost follows a
    /// named interface's address). It hands its requests to the stage as the socket does.
    private func startRemote() {
        guard config.remote.enabled else { return }
        let host = RemoteHost(config: config, loop: loop, stage: stage)
        host.onService = { [unowned self] service in
            deviceReport.remote = service
            stageOutput.remote = service
        }
        remote = host
        host.start()
    }

    /// The camera runs on its own thread; frames and state changes arrive on the loop.
    private func startCamera() {
        guard config.camera.enabled else { return displaysBackend.setNote(CameraState.note(nil), for: .outer) }
        do {
            let feed = try CameraFeed(settings: CameraSettings(config.camera, recording: config.recording),
                                      mailbox: loop.mailbox, recordingTap: recording?.tap)
            feed.onFrame = { [weak self] frame, preview in self?.stage.handle(.cameraPreview(frame, preview)) }
            feed.onStateChange = { [weak self, weak feed] state in
                guard let self, let feed else { return }
                KioskLog.notice("camera \(config.camera.device): \(state)")
                if case .streaming = state {} else { recording?.cameraLost("\(state)") }
                displaysBackend.setNote(CameraState.note(state), for: .outer)
                stage.handle(.camera(CameraInput(frame: feed.latestFrame, message: state.previewMessage,
                                                 state: "\(state)", live: true, identity: state.identity)))
            }
            camera = feed
            stageOutput.camera = feed
            deviceReport.cameraFeed = feed
            stage.handle(.camera(CameraInput(frame: nil, message: feed.state.previewMessage, state: "\(feed.state)",
                                             live: true)))
            feed.start()
            displaysBackend.setNote(CameraState.note(feed.state), for: .outer)
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
            // The importer's thread says when a document's text is ready (the loop's next
            // scan takes it); one finished before this line is taken by the scan below.
            let handle = LoopBound(self)
            let mailbox = loop.mailbox
            library.importer.finished = { mailbox.post { handle.value?.stage.handle(.libraryChanged) } }
            if library.skipped.contains(where: { $0.importedFrom != nil }) { stage.handle(.libraryChanged) }
        } catch {
            stage.handle(.problem(.library.detail("watch"), "scripts folder: \(error)"))
        }
    }

    /// The recorder's ports (`RecordingWiring`): takes, game attempts, the Clips screen.
    private func startRecording() {
        guard let recording else { return }
        if !config.audio.input.isEmpty && !devices.contains(.audio) { recording.noMicrophone = "sound is off in this kiosk (headless)" }
        let kiosk = RecordingWiring.Kiosk(
            loop: loop, stage: stage, config: config, microphone: sound.captureRing, gameSpeech: sound.gameSpeech,
            videoFormat: { [weak self] in RecordingTap.videoFormat(of: self?.camera, shown: self?.stage.camera.frame) },
            cameraState: { [weak self] in self?.camera.map { "\($0.state)" } ?? "off" })
        recordingWired = RecordingWiring.wire(recording, into: kiosk)
    }

    /// Voice follow's ears: the room microphone's capture ring (or a WAV file).
    private func startFollow() {
        let listening = KioskListening(loop: loop, folder: URL(fileURLWithPath: config.state.dir).appendingPathComponent("follow"))
        listening.captureRing = sound.captureRing
        listening.ready = { [weak self] words in self?.stage.handle(.followListening(words)) }
        listening.heard = { [weak self] result in self?.stage.handle(.followHeard(result)) }
        stage.follow.listening = listening
    }
}

/// What the display side tells the kiosk: draw a frame, a display came or went or
/// changed mode, a frame reached the glass. The stage draws and decides; the input
/// side follows the outer display's mode and presentation.
extension KioskApp: DisplayBackendDelegate {
    func drawFrame(for role: DisplayRole, into target: FrameTarget) -> Bool {
        let changed = stage.frame(role, at: target.presentationTime, into: target).changed
        // The preview thread fits the next pictures to what this outer frame drew.
        if role == .outer { camera?.previewWanted(stage.outerPreviewTarget) }
        return changed
    }

    func displayStatusChanged(_ role: DisplayRole, _ status: DisplayStatus) {
        let before = stage.displays[role]
        if before?.available != status.available || before?.mode != status.mode {
            KioskLog.notice("\(role) display \(status.connector): \(status.available ? "available \(status.mode.map { "\($0)" } ?? "")" : "unavailable")")
        }
        if role == .outer { input.outerChanged(from: before, to: status) }
        stage.handle(.display(role, status))
    }

    /// A misnamed connector and the like: the operator reads it on the inner display.
    func displayProblem(_ problem: DisplaysError) {
        stage.handle(.problem(.displays.detail("\(problem)"), "displays: \(problem)"))
    }

    func framePresented(_ role: DisplayRole, _ stamp: FlipStamp) {
        stage.handle(.framePresented(role, stamp))
    }
}
