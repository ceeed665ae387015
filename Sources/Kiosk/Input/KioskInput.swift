import Stage

/// The kiosk's input: libinput's keyboards, pointers and touchscreens (through the
/// seat when there is one), the hand controllers and MIDI read beside them, or the
/// windows' own keys and clicks (`rig run --backend window`). Events are routed to the
/// displays they belong to; the outer display's mode and presentation decide where a
/// touch lands and whether it is the talent's tap.
final class KioskInput {
    private let loop: EventLoop
    private let config: RigConfig
    private let stage: RigStage
    private let deviceReport: KioskDeviceReport
    private(set) var devices: InputDevices?
    private var windowInput: WindowInput?
    private var controllers: ControllerDevices?
    private var midi: MIDIControllers?

    init(loop: EventLoop, config: RigConfig, stage: RigStage, deviceReport: KioskDeviceReport) {
        self.loop = loop
        self.config = config
        self.stage = stage
        self.deviceReport = deviceReport
    }

    /// Opens libinput's devices and the hand controllers; a failure is a banner line.
    func startDevices(seat: SeatSession?) {
        do {
            let opener: InputDeviceOpener = seat.map { SeatInputDeviceOpener(seat: $0) } ?? DirectInputDeviceOpener()
            let devices = try InputDevices(loop: loop, configuration: InputConfiguration(config: config), opener: opener) {
                [weak self] event in self?.handle(event)
            }
            seat?.onDisable.append { [weak devices] in devices?.suspend() }
            seat?.onEnable.append { [weak devices] in devices?.resume() }
            self.devices = devices
            deviceReport.inputDevices = devices
            startControllers(opener: opener, bindings: devices.configuration.bindings, seat: seat)
            stage.handle(.problem(.input.detail("keymap"), devices.keymapProblem.map { "input: \($0)" }))
        } catch {
            stage.handle(.problem(.input, "input: \(error)"))
        }
    }

    /// Shuttles and gamepads, read beside libinput, through the same seat.
    private func startControllers(opener: InputDeviceOpener, bindings: KeyBindings, seat: SeatSession?) {
        let wanted = config.controllers
        stage.handControllers.settings = HandControllers.Settings(
            wheel: HandControllers.WheelAction(rawValue: wanted.wheel.action) ?? .speed,
            wheelLines: wanted.wheel.lines, jogLines: wanted.shuttle.jogLines)
        let devices = ControllerDevices(loop: loop, config: wanted, keys: bindings, opener: opener) {
            [weak self] event in self?.stage.handle(event)
        }
        seat?.onDisable.append { [weak devices] in devices?.suspend() }
        seat?.onEnable.append { [weak devices] in devices?.resume() }
        controllers = devices
        midi = MIDIControllers(loop: loop, config: wanted.midi, keys: bindings) { [weak self] event in self?.stage.handle(event) }
    }

    /// The windows' keys, mouse and touches reach the stage as a rig's input devices'
    /// do; closing the inner window stops the kiosk.
    func startWindowInput(from backend: any DisplayBackend) {
        guard let source = backend.ownInput else { return }
        let input = WindowInput(loop: loop, configuration: InputConfiguration(config: config, displays: backend)) {
            [weak self] event in self?.handle(event)
        }
        windowInput = input
        deviceReport.windowInput = input
        // The outer window's clicks and touches are the participant's taps.
        stage.handle(.participantTouch(true))
        stage.handle(.problem(.input.detail("keymap"), input.keymapProblem.map { "input: \($0)" }))
        source.onInput = { [weak input] event in input?.handle(event) }
        source.onQuit = { [weak loop] in
            KioskLog.notice("stopping: the inner window was closed")
            loop?.stop()
        }
    }

    /// The input side's events, routed to the displays they belong to.
    func handle(_ event: InputEvent) {
        switch event {
        case let .outerTap(time): stage.handle(.outerTap(time: time))
        case let .key(press): stage.handle(.key(press))
        case let .innerPointer(x, y, button, time): stage.handle(.innerPointer(x: x, y: y, button: button, time: time))
        case let .innerTouch(phase, _, x, y, time): stage.handle(.innerTouch(phase: phase, x: x, y: y, time: time))
        case let .wheel(steps, time): stage.handle(.controller(.wheel(steps: steps, time: time)))
        case let .deviceAdded(info):
            KioskLog.info("input device added: \(info.name) (\(info.role.rawValue))")
            participantTouchChanged()
        case let .deviceRemoved(info):
            KioskLog.info("input device removed: \(info.name)")
            participantTouchChanged()
        }
    }

    /// The game tells the host when the participant has no touchscreen to stop with.
    private func participantTouchChanged() {
        let present = devices?.devices.contains { $0.role == .outerTouchscreen } ?? false
        if present != stage.participantTouch { stage.handle(.participantTouch(present)) }
        stage.handle(.problem(.input.detail("touch"), devices?.autoTouchProblem))
    }

    /// The outer display changed: a touch there is the talent's tap only while it shows
    /// the prompter, and touches map onto its new mode.
    func outerChanged(from before: DisplayStatus?, to status: DisplayStatus) {
        let taps = status.showsContent && stage.controller.mode == .prompter
        devices?.outerTakesTaps = taps
        windowInput?.outerTakesTaps = taps
        if before?.mode != status.mode, let mode = status.mode {
            devices?.update(outerMapping: TouchMapping(outer: config, width: mode.width, height: mode.height))
            windowInput?.update(outerWidth: Double(mode.width), outerHeight: Double(mode.height))
        }
    }
}
