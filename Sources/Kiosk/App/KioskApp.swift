import Foundation
import Prompter
import Render

/// `rig run`: the kiosk. Owns the event loop and everything on it: the prompter
/// state, the displays, input, the control socket and the systemd handshake.
/// Whatever fails at start (a display, the touchscreen, the socket, the scripts
/// folder) degrades into a banner on the inner display and a journal line; the kiosk
/// always comes up.
final class KioskApp {
    let loop: EventLoop
    let config: RigConfig
    let controller: PrompterController
    let renderer: SceneRenderer
    /// The operator console on the inner display.
    let console: ConsoleController
    private(set) var stopwatch = ReadingStopwatch()
    let displays: DisplayService
    var displaysBackend: any DisplayBackend { displays.backend }
    private let notifier = SystemdNotifier()
    private var signals: SignalWatcher?
    private var control: ControlServer?
    private(set) var input: InputDevices?
    private var scriptWatcher: ScriptFolderWatcher?
    private(set) var camera: CameraFeed?
    /// Sound out and in (KioskApp+Audio); nil with both turned off or headless.
    var audio: AudioService?
    /// Drawn over the camera preview: the framing check's status line, a cue on request.
    var cameraOverlay = CameraOverlay()
    var displayStatus: [DisplayRole: DisplayStatus] = [:]
    var tapLatency = TapLatencyHistogram()
    private var layoutGeneration = 0
    private var resumeTimer: EventLoop.TimerID?

    let statusFileWriter: DisplayStatusFile?

    init(config: RigConfig, configProblems: [ConfigProblem], backend: DisplayService.Kind,
         headlessSizes: HeadlessSizes = HeadlessSizes(), statusPath: String? = nil, useSeat: Bool = false) throws {
        MallocPolicy.apply()
        loop = try EventLoop()
        self.config = config
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
        controller = PrompterController(library: library, stateDirectory: stateDirectory,
                                        defaults: ReadingSettings(config: config.prompter),
                                        wordsPerMinute: config.prompter.wordsPerMinute)
        renderer = SceneRenderer(config: config)
        console = ConsoleController(controller: controller)
        let inner = config.displays.inner.drawingSize(headless: config.displays)
        let outer = config.displays.outer.drawingSize(headless: config.displays)
        displays = try DisplayService(kind: backend, configuration: DisplayConfiguration(config.displays),
                                  headlessSizes: [.inner: (headlessSizes.inner?.width ?? inner.width, headlessSizes.inner?.height ?? inner.height),
                                                  .outer: (headlessSizes.outer?.width ?? outer.width, headlessSizes.outer?.height ?? outer.height)],
                                  loop: loop, useSeat: useSeat, log: { KioskLog.warning($0) })
        statusFileWriter = statusPath.map(DisplayStatusFile.init)
        for problem in configProblems where problem.severity == .error { controller.addProblem(problem.description) }
        if let libraryProblem { controller.addProblem(libraryProblem) }
        if let fontProblem = renderer.fontProblem { controller.addProblem(fontProblem) }
        controller.onChange = { [weak self] in self?.stateChanged() }
        controller.onLayoutChange = { [weak self] in self?.relayout() }
        connectConsole()
    }

    private func connectConsole() {
        let loop = loop
        console.now = { loop.clock() }
        console.schedule = { deadline, action in loop.addTimer(at: deadline, action) }
        console.onChange = { [weak self] in self?.displaysBackend.requestFrame(.inner) }
        console.setOuterEnabled = { [weak self] on in self?.setOuterEnabled(on) }
        console.isOuterEnabled = { [weak self] in self?.displaysBackend.status(of: .outer).enabled ?? false }
    }

    /// Starts everything and runs until SIGTERM or SIGINT. Returns the exit status.
    func run() -> Int32 {
        start()
        loop.run()
        shutdown()
        return 0
    }

    func start() {
        startSignals()
        startControl()
        startInput()
        startScriptWatcher()
        startCamera()
        startAudio()
        do {
            try displays.start(delegate: self)
        } catch {
            controller.addProblem("displays: \(error)")
        }
        displaysBackend.setEnabled(config.displays.outer.enabled, for: .outer)
        openFirstScript()
        notifier.ready()
        notifier.startWatchdog(on: loop)
        scheduleResumeSaves()
        startStatusFile()
        KioskLog.notice("rig \(CLI.version) running")
    }

    func shutdown() {
        notifier.stopping()
        controller.saveResume(at: loop.clock(), wordIndex: renderer.wordIndex(atOffset: controller.engine.offset(at: loop.clock())))
        controller.flushStateWrites()
        camera?.stop()
        audio?.stop()
        displays.shutdown()
        writeStatusFile(state: "stopped")
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
                self?.handle(request) ?? .failure("the kiosk is stopping")
            }
        } catch {
            controller.addProblem("control socket: \(error)")
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
            if let problem = devices.keymapProblem { controller.addProblem("input: \(problem)") }
        } catch {
            controller.addProblem("input: \(error)")
        }
    }

    /// The camera runs on its own thread; frames and state changes arrive on the loop.
    private func startCamera() {
        guard config.camera.enabled else { return }
        do {
            let feed = try CameraFeed(settings: CameraSettings(config.camera), mailbox: loop.mailbox)
            feed.onFrame = { [weak self] _ in
                guard let self else { return }
                self.displaysBackend.requestFrame(.inner)
                if self.controller.mode == .framing { self.displaysBackend.requestFrame(.outer) }
            }
            feed.onStateChange = { [weak self] state in
                KioskLog.notice("camera \(self?.config.camera.device ?? ""): \(state)")
                self?.stateChanged()
            }
            camera = feed
            feed.start()
        } catch {
            controller.addProblem("camera \(config.camera.device): \(error)")
        }
    }

    var cameraView: SceneRenderer.CameraView {
        guard let camera else {
            return SceneRenderer.CameraView(frame: nil, message: config.camera.enabled ? "Camera unavailable" : nil,
                                            mirror: config.camera.mirror, overlay: cameraOverlay)
        }
        var overlay = cameraOverlay
        if controller.mode == .framing && overlay.status == nil { overlay.status = "Framing check" }
        return SceneRenderer.CameraView(frame: camera.latestFrame, message: camera.state.previewMessage,
                                        mirror: config.camera.mirror, overlay: overlay)
    }

    /// The outer touchscreen mapped onto the outer display as it is now.
    func touchMapping(width: Int, height: Int) -> TouchMapping {
        TouchMapping(width: Double(width), height: Double(height),
                     rotation: TouchMapping.Rotation(rawValue: config.displays.outer.rotation) ?? .none,
                     calibration: config.touch.calibration)
    }

    private func startScriptWatcher() {
        guard let library = controller.library else { return }
        do {
            let watcher = try ScriptFolderWatcher(root: library.root)
            scriptWatcher = watcher
            loop.addReader(fd: watcher.fileDescriptor, name: "scripts folder") { [weak self] in
                guard watcher.drain() else { return }
                _ = library.refresh()
                self?.console.libraryChanged()
                self?.stateChanged()
            }
        } catch {
            controller.addProblem("scripts folder: \(error)")
        }
    }

    /// The script read last (at its position), else the newest script in the library.
    private func openFirstScript() {
        guard let library = controller.library else { return }
        let now = loop.clock()
        let candidates = [controller.resumeStore.state?.scriptID].compactMap { $0 } + library.scripts().map(\.id)
        for id in candidates {
            do {
                try controller.open(id: id, at: now)
                return
            } catch {
                controller.addProblem("\(id): \(error)")
            }
        }
    }

    // MARK: state changes

    func stateChanged() {
        stopwatch.observe(controller.engine.state, at: loop.clock())
        console.controllerChanged()
        for role in DisplayRole.allCases { displays.backend.requestFrame(role) }
        notifier.status(statusLine)
    }

    private var statusLine: String {
        let title = controller.script?.title ?? "no script"
        return "\(controller.engine.state.rawValue): \(title) at \(controller.engine.speed) px/s"
    }

    /// Lays the text out again for the outer display and keeps the reading position.
    func relayout() {
        let now = loop.clock()
        let outer = displayStatus[.outer]?.mode.map { PixelSize(width: $0.width, height: $0.height) }
            ?? config.displays.outer.drawingSize(headless: config.displays)
        let change = renderer.relayout(controller: controller, outerSize: outer)
        controller.layoutChanged(at: now, maxOffset: change.maxOffset, mapOffset: change.mapOffset)
        resumeIfOpenedAtTop(change, at: now)
        layoutGeneration += 1
        finishLayout(generation: layoutGeneration)
    }

    /// One piece of text per loop turn while the outer display is idle, so input and
    /// flips are never kept waiting behind a batch of rasterizing.
    func prepareAheadWhileIdle(pieces: Int) {
        guard pieces > 0, let mode = displayStatus[.outer]?.mode,
              !renderer.isAnimating(.outer, controller: controller, at: loop.clock()),
              renderer.prepareAhead(outerSize: PixelSize(width: mode.width, height: mode.height)) else { return }
        loop.addTimer(at: loop.clock()) { [weak self] in self?.prepareAheadWhileIdle(pieces: pieces - 1) }
    }

    /// Lays out the rest of a long script a slice at a time between frames, then gives
    /// the engine the exact end. A newer relayout makes an older finisher stop.
    private func finishLayout(generation: Int) {
        loop.addTimer(at: loop.clock()) { [weak self] in
            guard let self, generation == self.layoutGeneration else { return }
            if let height = self.renderer.continueLayout(lines: 200) {
                self.controller.layoutChanged(at: self.loop.clock(), maxOffset: height) { $0 }
            } else {
                self.finishLayout(generation: generation)
            }
        }
    }

    /// A script opened at the top that was being read before a restart goes back to
    /// the same place: the saved offset when the layout is the same, else its word.
    private func resumeIfOpenedAtTop(_ change: SceneRenderer.Relayout, at now: Double) {
        guard let saved = controller.resumePoint, saved.offset > 0, controller.engine.state == .stopped,
              controller.engine.offset(at: now) == 0 else { return }
        var target = saved.offset
        if let word = saved.wordIndex, let wordTop = change.offsetOfWord(word),
           abs(wordTop - saved.offset) > change.lineHeight {
            target = wordTop
        }
        controller.seek(to: target, at: now)
        KioskLog.info("resumed \(saved.scriptID) at \(Int(target)) px")
    }

    private func scheduleResumeSaves() {
        resumeTimer = loop.addTimer(at: loop.clock() + 1) { [weak self] in
            guard let self else { return }
            let now = self.loop.clock()
            self.controller.saveResume(at: now, wordIndex: self.renderer.wordIndex(atOffset: self.controller.engine.offset(at: now)))
            self.scheduleResumeSaves()
        }
    }

    func status(at now: Double) -> JSONValue {
        // Asked of the backend, not the cache: flip counts change with every frame.
        var displays: [DisplayRole: DisplayStatus] = [:]
        for role in DisplayRole.allCases { displays[role] = displaysBackend.status(of: role) }
        let touch = input?.devices.first { $0.role == .outerTouchscreen }
        var inputStatus: [String: JSONValue] = [:]
        if case let .object(fields)? = input?.statusJSON { inputStatus = fields }
        inputStatus["touch"] = .optional(touch?.name)
        inputStatus["taps"] = .int(controller.taps)
        return withAudioStatus(StatusReport(controller: controller, displays: displays,
                            camera: cameraStatus,
                            input: .object(inputStatus),
                            latency: ["tap_to_flip": tapLatency.summary.json],
                            time: now, console: console.statusJSON).json)
    }

    private var cameraStatus: JSONValue {
        guard let camera else {
            return ["device": .string(config.camera.device), "state": config.camera.enabled ? "unavailable" : "disabled"]
        }
        var fields: [String: JSONValue] = [:]
        for (key, value) in camera.status.fields {
            fields[String(key.dropFirst("camera.".count))] = Double(value).map { .number($0) } ?? .string(value)
        }
        fields["thumbnail"] = renderer.lastThumbnailRect.map { rect in
            ["x": .int(rect.x), "y": .int(rect.y), "width": .int(rect.width), "height": .int(rect.height)]
        } ?? .null
        return .object(fields)
    }

    // MARK: input

    func handle(_ event: InputEvent) {
        switch event {
        case let .outerTap(time):
            let wasPlaying = controller.engine.state(at: time) == .playing
            controller.tap(at: time)
            if wasPlaying { tapLatency.tapAccepted(at: time) }
        case let .key(press):
            if console.handle(press) { return }
            // Held keys repeat; of the bound actions only speed changes follow a repeat.
            guard let action = press.action, !press.isRepeat || action.repeatsWhileHeld else { return }
            controller.perform(action, at: press.time)
        case let .deviceAdded(info):
            KioskLog.info("input device added: \(info.name) (\(info.role.rawValue))")
        case let .deviceRemoved(info):
            KioskLog.info("input device removed: \(info.name)")
        case let .innerPointer(x, y, button, _):
            console.pointer(x: x, y: y, button: button)
        case let .innerTouch(phase, _, x, y, _):
            console.touch(phase: phase, x: x, y: y)
        }
    }
}
