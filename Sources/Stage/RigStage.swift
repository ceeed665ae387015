import Foundation
import Game
import Media
import Prompter
import Render

/// The app core: what the two displays show and how timed events change it. It holds
/// the prompter, the operator console and the renderer; events go in (`handle`),
/// frames come out (`frame`), and "a frame is wanted" goes out through `frameWanted`.
/// Time comes from an injected clock and timers from an injected scheduler, so the
/// kiosk's loop, `rig snapshot`, `rig bench` and tests all drive the same stage.
/// No devices: the kiosk wires its devices to this.
package final class RigStage {
    package let settings: Settings
    /// The operator's banner: what is wrong with the rig now.
    package let problems = ProblemBoard()
    package let controller: PrompterController
    package let renderer: SceneRenderer
    /// The operator console on the inner display.
    package let console: ConsoleController
    /// The Simon Says game; while it is open the prompter does not run.
    package let game: GameController
    /// The host's requests to the game: the socket's, the remote's, the Game screen's.
    package let gameDesk: GameDesk
    package private(set) var stopwatch = ReadingStopwatch()
    /// What the display side last said of each display.
    package internal(set) var displays: [DisplayRole: DisplayStatus] = [:]
    /// The camera's state and latest picture, and the outer preview made of it.
    var stageCamera: StageCamera
    package var camera: CameraInput { stageCamera.input }
    /// Prompter takes: the countdown and the REC mark on both displays, the recorder's port.
    package let takes: PrompterTakes
    /// What the displays show of the take now.
    package var take: TakeIndicator { takes.indicator }
    package internal(set) var tapLatency = TapLatencyHistogram()
    /// Both displays' frames: drawn, in flight, on the glass.
    private(set) lazy var frames = DisplayFrames(stage: self)
    /// The frame each display was last given, until its flip says it reached the glass.
    package var inFlight: [DisplayRole: FrameReport] { frames.inFlight }
    /// What each display shows now: the report of its frame last flipped.
    package var shown: [DisplayRole: FrameReport] { frames.shown }
    /// The participant's view, touchscreen and camera, as the game needs them.
    var seat = ParticipantSeat()
    /// The participant's display has a touchscreen now (their tap is Stop in the game).
    package var participantTouch: Bool { seat.touch }
    /// The Clips screen, `rig ctl clips` and the replay, through the store's ports.
    package let clips: ClipsController
    /// Voice follow: what the listening port hears steers the text.
    package let follow: VoiceFollowController
    /// Shuttles, gamepads, MIDI and the operator's wheel: who steers the speed.
    package let handControllers: HandControllers
    /// `rig selftest` and Settings' Self-test: while one runs its cards hold both displays.
    package let selfTests: SelfTests
    /// A follower rig's lead (`[follow_rig]`); nil on a rig that leads itself.
    package private(set) var followerRig: FollowerRig?
    private let layoutWork: LayoutWork
    private let transportTimers: TransportTimers

    package let now: () -> Double
    /// The wall clock for the console's clock and the script's end time (tests fix it).
    package var wallClock: () -> Date = { Date() }
    package let schedule: (Double, @escaping () -> Void) -> Void

    /// Where the stage's wishes go: frames, the outer display's enabled flag, systemd's line.
    package var output: any StageOutput = StageOutputNone()
    /// The rig's sound output: speech on request, the replay's sound.
    package var sound: any SoundOutputPort = NoSoundOutput() {
        didSet { clips.sound = sound }
    }
    /// What the devices report of themselves in `rig ctl status`.
    package var devices: any DeviceReportPort = NoDeviceReport()
    /// The network remote's pairing and paired phones; nil with the remote off.
    package weak var remoteAccess: (any RemoteAccessPort)?
    /// Applies `rig ctl set KEY VALUE` to reading settings, with rig.toml's schema and
    /// messages (the kiosk's config code); nil refuses every key.
    package var readingSettingParser: ((String, String, inout ReadingSettings) -> String?)?

    package init(settings: Settings, library: ScriptLibrary?, fonts: FontLibrary?, now: @escaping () -> Double,
         schedule: @escaping (Double, @escaping () -> Void) -> Void) {
        self.settings = settings
        self.now = now
        self.schedule = schedule
        stageCamera = StageCamera(configured: settings.cameraEnabled)
        controller = PrompterController(library: library, stateDirectory: settings.stateDirectory,
                                        defaults: settings.readingDefaults, wordsPerMinute: settings.wordsPerMinute,
                                        problems: problems)
        renderer = SceneRenderer(fonts: fonts, markerPosition: settings.markerPosition,
                                 cacheBudgetBytes: settings.cacheBudgetBytes)
        layoutWork = LayoutWork(renderer: renderer, controller: controller, problems: problems, now: now,
                                schedule: schedule)
        transportTimers = TransportTimers(controller: controller, now: now, schedule: schedule)
        console = ConsoleController(controller: controller)
        clips = ClipsController(console: console, now: now)
        follow = VoiceFollowController(language: settings.followLanguage, lead: settings.followLead,
                                       controller: controller, problems: problems, now: now, schedule: schedule)
        handControllers = HandControllers(controller: controller, problems: problems)
        selfTests = SelfTests(stateDirectory: settings.stateDirectory)
        takes = PrompterTakes(countdown: settings.takeCountdown, controller: controller, problems: problems, now: now,
                              schedule: schedule)
        game = GameController(catalogURL: settings.gameCatalog, stateDirectory: settings.stateDirectory, now: now,
                              schedule: schedule)
        gameDesk = GameDesk(game: game, console: console, clips: clips, cameraEnabled: settings.cameraEnabled)
        gameDesk.open = { [unowned self] in openGame() }
        gameDesk.leave = { [unowned self] in leaveGame() }
        gameDesk.outerRefreshMillihertz = { [unowned self] in displays[.outer]?.mode?.refreshMillihertz }
        game.onChange = { [unowned self] in
            if game.cueAwaitingOnset { frames.cueRequested() }
            if game.cueAwaitingOnset { output.frameWantedNow(.outer) } else { frameWanted(.outer) }
            console.gameChanged()
            output.liveStateChanged()
        }
        game.cueComing = { [unowned self] in renderer.warmCueBadge() }
        game.cueFrameAhead = { [unowned self] due in output.prepareFrame(.outer, for: due) }
        clips.innerChanged = { [unowned self] in frameWanted(.inner) }
        clips.applyToConsole = { [unowned self] in console.perform($0) }
        follow.shownChanged = { [unowned self] in frameWanted(.inner) }
        controller.onChange = { [unowned self] in stateChanged() }
        transportTimers.countdownEnded = { [unowned self] in stateChanged() }
        transportTimers.secondTicked = { [unowned self] in if console.state.screen == .prompter { frameWanted(.inner) } }
        problems.onChange = { [unowned self] in stateChanged() }
        controller.onLayoutChange = { [unowned self] in relayout() }
        console.now = now
        console.schedule = schedule
        console.onChange = { [unowned self] in frameWanted(.inner) }
        console.request = { [unowned self] request in handle(request) }
        console.isOuterEnabled = { [unowned self] in displays[.outer]?.enabled ?? false }
        takes.onChange = { [unowned self] in
            console.controllerChanged()
            for role in DisplayRole.allCases { frameWanted(role) }
        }
        handControllers.lineHeight = { [unowned self] in renderer.readingText?.layout?.lineHeight ?? 0 }
        handControllers.onChange = { [unowned self] in if console.state.screen == .settings { frameWanted(.inner) } }
        console.controllersTest = { [unowned self] in handControllers.setTesting(!handControllers.testing, at: now()) }
        selfTests.onChange = { [unowned self] in for role in DisplayRole.allCases { frameWanted(role) } }
        console.selfTestStart = { [unowned self] in
            let refusal = startSelfTest()
            console.update { $0.selfTestRefusal = refusal.map { "Not started: \($0)." } }
        }
        if let follow = settings.followRig {
            let rig = FollowerRig(settings: follow, controller: controller, problems: problems, now: now,
                                  wallClock: { [unowned self] in wallClock().timeIntervalSince1970 }, schedule: schedule)
            rig.layout = { [unowned self] in renderer.readingText?.layout }
            rig.onChange = { [unowned self] in stateChanged() }
            controller.onSteer = { [unowned self] in for role in DisplayRole.allCases { frameWanted(role) } }
            followerRig = rig
        }
    }

    /// A stage on a manual clock: `rig snapshot`, `rig bench` and tests.
    package convenience init(settings: Settings, library: ScriptLibrary? = nil, fonts: FontLibrary?, clock: ManualStageClock) {
        self.init(settings: settings, library: library, fonts: fonts, now: { clock.now },
                  schedule: { clock.schedule(at: $0, $1) })
    }

    /// The font library, or why there is none (the stage then shows plain colours).
    package static func loadFonts() -> (fonts: FontLibrary?, problem: String?) {
        do { return (try FontLibrary(), nil) } catch { return (nil, "fonts: \(error)") }
    }

    // MARK: start and stop

    /// Opens the script read last (at its position), else the newest in the library,
    /// and starts saving the reading position once a second.
    package func start() {
        layoutWork.openFirstScript()
        game.restore()
        layoutWork.saveResumeEverySecond()
        transportTimers.startTicking()
        if settings.followAtStart { follow.startAtBoot() }
    }

    /// Saves the reading position and waits for the state writes (at shutdown).
    package func stop() {
        follow.stop()
        // A running attempt ends as the shutdown's interruption, its speech cancelled.
        game.receive(.interrupt(.shutdown))
        layoutWork.saveResume()
        controller.resume?.flush()
    }

    // MARK: the game

    /// The game takes both displays: the prompter stops, the outer display shows the
    /// participant view from its next frame.
    package func openGame() {
        guard !game.isOpen else { return }
        controller.stop(at: now())
        seat.viewShown = false
        game.open()
        console.show(.game)
        gameConditionsChanged()
        stateChanged()
    }

    /// Back to the prompter; an attempt running now is void, a retry offered.
    package func leaveGame() {
        guard game.isOpen else { return }
        game.leave()
        if console.state.screen.isGame { console.show(controller.script == nil ? .library : .prompter) }
        seat.viewShown = false
        gameConditionsChanged()
        stateChanged()
    }

    /// What the game needs to know of the camera and the participant's display.
    func gameConditionsChanged() {
        game.rigChanged(seat.conditions(camera: camera, cameraEnabled: settings.cameraEnabled, outer: displays[.outer],
                                        gameOpen: game.isOpen))
    }

    // MARK: events

    /// A device's event: see `StageEvents` for what each one changes.
    package func handle(_ event: StageEvent) { StageEvents(stage: self).apply(event) }

    /// Starts a self-test on the kiosk's devices (`rig selftest`, Settings' button); the
    /// reason when it cannot. Its cards take both displays, so never over a talent's
    /// reading, a take or a game attempt.
    package func startSelfTest(_ options: SelfTestRun.Options = SelfTestRun.Options()) -> String? {
        if take != .none { return "a take is being recorded: stop it first" }
        if game.session?.phase.isCapturing == true { return "a game attempt is running: let it finish first" }
        if controller.engine.state(at: now()) == .playing { return "the prompter is playing: pause it first" }
        let pairing = SelfTestRun.Pairing(
            open: { [unowned self] in remoteAccess?.request(action: "pair", id: nil).body["ok"] == true },
            qr: { [unowned self] in remoteAccess?.shown.pairingQR })
        return selfTests.start(options: options, sound: sound, outerTouchscreen: { [unowned self] in seat.touch },
                               displayStatus: { [unowned self] in devices.displays[$0] }, pairing: pairing,
                               now: now, schedule: schedule)
    }

    /// Where the outer display's camera preview is wanted, for the kiosk's preview
    /// thread: the size and mirroring of the outer frame last drawn with the camera
    /// (nil while the outer display shows no camera: nothing need be converted for it).
    package var outerPreviewTarget: PreviewTarget? { renderer.outerPreviewTarget }

    /// Something `role` shows changed: it draws again at its next vblank.
    func frameWanted(_ role: DisplayRole) { output.frameWanted(role) }

    /// Something shown changed: every display draws again, the console follows.
    package func stateChanged() {
        let time = now()
        // A countdown is not reading time: the stopwatch starts when the text moves.
        stopwatch.observe(controller.engine.state, at: max(time, controller.engine.countdownEnd ?? time))
        transportTimers.transportChanged()
        console.controllerChanged()
        for role in DisplayRole.allCases { frameWanted(role) }
        output.statusLineChanged(statusLine)
        output.liveStateChanged()
    }

    private var statusLine: String {
        let title = controller.script?.title ?? "no script"
        return "\(controller.engine.state.rawValue): \(title) at \(controller.engine.speed) px/s"
    }

    package func setOuterEnabled(_ on: Bool) {
        output.outerEnabledChanged(on)
        KioskLog.info(on ? "outer display enabled by the operator" : "outer display turned off by the operator")
    }

    /// The outer display's size: its mode once known, else the configured size.
    package var outerSize: PixelSize {
        displays[.outer]?.mode.map { PixelSize(width: $0.width, height: $0.height) } ?? settings.outerSize
    }

    /// Lays the text out again for the outer display and keeps the reading position.
    package func relayout() { layoutWork.relayout(outerSize: outerSize) }

    /// Warms `pieces` pieces of text, one per loop turn, while the outer display is idle.
    package func prepareAheadWhileIdle(pieces: Int) {
        layoutWork.prepareAhead(pieces: pieces) { [unowned self] in
            guard let mode = displays[.outer]?.mode, !isAnimating(.outer, at: now()) else { return nil }
            return PixelSize(width: mode.width, height: mode.height)
        }
    }

    package func timers(at time: Double) -> PrompterTimers {
        PrompterTimers(controller: controller, elapsed: stopwatch.elapsed(at: time), at: time, wallClock: wallClock())
    }

    // MARK: frames

    /// Draws `role`'s frame for `presentationTime` into `target` if anything it shows
    /// changed, and reports what it showed (see `DisplayFrames`).
    package func frame(_ role: DisplayRole, at presentationTime: Double, into target: FrameTarget) -> FrameReport {
        frames.frame(role, at: presentationTime, into: target)
    }

    /// Whether `role`'s next frame will differ from this one without any event.
    package func isAnimating(_ role: DisplayRole, at time: Double) -> Bool {
        selfTests.animates
            || renderer.isAnimating(role, controller: controller, take: take, at: time)
            || (role == .inner && clips.isAnimating(at: time))
    }

    // MARK: requests

    /// Applies a request at the stage's time: the socket's, the remote's, a console button's.
    @discardableResult
    package func handle(_ request: ControlRequest) -> ControlReply {
        handle(request, at: now())
    }

    /// Applies a request at `time`: a key's is when it was pressed.
    @discardableResult
    func handle(_ request: ControlRequest, at time: Double) -> ControlReply {
        ControlRequests(stage: self).apply(request, at: time)
    }

    /// `rig ctl status` at `time`: the stage's state with what the devices report of
    /// themselves (the displays as the backend reports them now: flip counts change
    /// every frame).
    package func status(at time: Double) -> JSONValue {
        guard case var .object(fields) = StageStatus(stage: self).json(
            at: time, displays: devices.displays, camera: devices.camera, cameraDevice: devices.cameraDevice,
            input: devices.input)
        else { return .null }
        fields.merge(devices.sections) { $1 }
        return .object(fields)
    }
}
