import Foundation
import Game
import Render
import Testing
@testable import Stage

/// Speech on the manual clock: synthesis answers at once (as the next loop turn), the
/// first sample leaves `latency` after play, the last `duration` later.
final class FakeGameSpeech: GameSpeechPort {
    let clock: ManualStageClock
    var duration = 1.5
    var latency = 0.02
    var endReportedEarly = 0.0
    private(set) var prepared: [String] = []
    private(set) var cancelled: [UInt64] = []
    private var live: Set<UInt64> = []

    init(clock: ManualStageClock) { self.clock = clock }

    func prepare(_ text: String, wordsPerMinute: Int, generation: UInt64,
                 done: @escaping (Result<Double, GameSpeechFailure>) -> Void) {
        prepared.append(text)
        let duration = duration
        clock.schedule(at: clock.now) { done(.success(duration)) }
    }

    func play(generation: UInt64, report: @escaping (GameSpeechReport) -> Void) {
        live.insert(generation)
        let start = clock.now + latency
        clock.schedule(at: start) { [weak self] in if self?.live.contains(generation) == true { report(.started(time: start)) } }
        // ALSA reports the end ahead of its DAC time by `endReportedEarly`.
        clock.schedule(at: start + duration - endReportedEarly) { [weak self] in
            if self?.live.contains(generation) == true { report(.ended(time: start + self!.duration)) }
        }
    }

    func cancel(generation: UInt64) {
        cancelled.append(generation)
        live.remove(generation)
    }
}

/// A stage on the manual clock whose outer display flips at every 60 Hz vblank that
/// has a new frame, as the kiosk's display loop does: the frame is drawn for the
/// vblank's time, and its flip is reported at that time with the vblank's sequence.
final class GameRig {
    static let catalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/game/actions.json")
    static let refresh = 60.0

    let replay: ManualClockStage
    let speech: FakeGameSpeech
    let outer: Canvas
    let inner: Canvas
    private(set) var sequence: UInt64 = 6000  // 100 s at 60 Hz: the clock starts there
    private(set) var outerFlips: [(time: Double, sequence: UInt64)] = []
    var stage: RigStage { replay.stage }
    private var fontsLoaded: Bool { stage.renderer.fonts != nil }
    var game: GameController { replay.stage.game }
    var now: Double { replay.clock.now }

    init(stateDirectory: URL? = nil, camera: Bool = false, fonts: FontLibrary? = nil,
         innerSize: PixelSize = PixelSize(width: 320, height: 180)) throws {
        var settings = RigStage.Settings(outerSize: PixelSize(width: 320, height: 180))
        settings.gameCatalog = Self.catalog
        settings.stateDirectory = stateDirectory
        settings.cameraEnabled = camera
        replay = ManualClockStage(settings: settings, innerSize: innerSize, fonts: fonts, start: 100)
        speech = FakeGameSpeech(clock: replay.clock)
        replay.stage.game.speech = speech
        outer = try Canvas(size: replay.outerSize)
        inner = try Canvas(size: replay.innerSize)
        replay.stage.start()
    }

    /// Runs the vblanks (and the timers between them) up to `time`.
    func run(to time: Double) {
        while true {
            let next = (Double(sequence + 1) / Self.refresh)
            guard next <= time else { break }
            replay.clock.advance(to: next)
            sequence += 1
            vblank(at: next)
        }
        replay.clock.advance(to: time)
    }

    func run(for seconds: Double) { run(to: now + seconds) }

    /// Draws the inner display (the console) if it changed, as its own display loop would.
    func drawInner(at time: Double) {
        let target = FrameTarget(width: inner.width, height: inner.height, stride: inner.width * 4,
                                 pixels: UnsafeMutableRawPointer(inner.pixels.baseAddress!), presentationTime: time,
                                 mustDraw: false)
        if stage.frame(.inner, at: time, into: target).changed {
            stage.handle(.framePresented(.inner, FlipStamp(time: time, sequence: sequence)))
        }
    }

    /// A left click at the centre of a control the last inner frame showed.
    func click(_ id: WidgetID, sourceLocation: SourceLocation = #_sourceLocation) {
        drawInner(at: now)
        guard let target = stage.console.targets[id] else {
            Issue.record("no control \(id) on the console", sourceLocation: sourceLocation)
            return
        }
        let x = Double(target.rect.x + target.rect.width / 2), y = Double(target.rect.y + target.rect.height / 2)
        stage.handle(.innerPointer(x: x, y: y, button: nil, time: now))
        stage.handle(.innerPointer(x: x, y: y, button: PointerButton(code: 0x110, isPressed: true), time: now))
        stage.handle(.innerPointer(x: x, y: y, button: PointerButton(code: 0x110, isPressed: false), time: now))
    }

    func key(_ symbol: KeySymbol) {
        drawInner(at: now)
        stage.handle(.key(KeyPress(code: 0, symbol: symbol, time: now)))
    }

    /// Typed text, one key press per character, as the keyboard delivers it.
    func type(_ text: String) {
        for character in text {
            drawInner(at: now)
            stage.handle(.key(KeyPress(code: 0, symbol: character == " " ? .space : nil, text: String(character), time: now)))
        }
    }

    /// Down pressed until the control has the focus (keyboard only), failing after
    /// every control was passed once.
    func focusByKeys(_ id: WidgetID, sourceLocation: SourceLocation = #_sourceLocation) {
        drawInner(at: now)
        for _ in 0...stage.console.targets.all.count {
            if stage.console.state.focus == id { return }
            key(.down)
        }
        Issue.record("Down never reached \(id)", sourceLocation: sourceLocation)
    }

    /// With `prepareAhead()`: the outer display's second buffer, which holds a frame
    /// drawn ahead (`FrameTarget.preparing`) until a vblank's frame flips it or draws over it.
    private(set) var ahead: Canvas?
    private(set) var aheadHolds = false
    /// Frames drawn ahead (their presentation times) and flips of one of them.
    private(set) var preparedFor: [Double] = []
    private(set) var flippedAhead: [Double] = []

    /// The outer display draws the stage's frames asked for ahead, as the DRM backend
    /// does: at once into its free buffer, held there unflipped.
    func prepareAhead() throws {
        let back = try Canvas(size: replay.outerSize)
        ahead = back
        let output = ClosureStageOutput()
        stage.output = output
        output.prepare = { [unowned self] role, time in
            guard role == .outer, let ahead else { return }
            preparedFor.append(time)
            let target = FrameTarget(width: ahead.width, height: ahead.height, stride: ahead.width * 4,
                                     pixels: UnsafeMutableRawPointer(ahead.pixels.baseAddress!), presentationTime: time,
                                     mustDraw: false, preparing: true)
            aheadHolds = stage.frame(.outer, at: time, into: target).changed
        }
    }

    private func vblank(at time: Double) {
        if fontsLoaded { drawInner(at: time) }
        // Double-buffered when frames are drawn ahead: the buffer holding one is drawn
        // into (or flipped as it is), then copied to the screen.
        let buffer = aheadHolds ? ahead ?? outer : outer
        let target = FrameTarget(width: buffer.width, height: buffer.height, stride: buffer.width * 4,
                                 pixels: UnsafeMutableRawPointer(buffer.pixels.baseAddress!), presentationTime: time,
                                 mustDraw: false, holdsPrepared: aheadHolds)
        let report = stage.frame(.outer, at: time, into: target)
        if report.changed {
            if buffer !== outer {
                if report.fromPrepared { flippedAhead.append(time) }
                _ = outer.pixels.update(fromContentsOf: buffer.pixels)
                aheadHolds = false
            }
            outerFlips.append((time, sequence))
            stage.handle(.framePresented(.outer, FlipStamp(time: time, sequence: sequence)))
        }
    }

    /// A control request as `rig ctl game ACTION key=value...` sends it.
    @discardableResult
    func ctl(_ action: String, _ values: [String: String] = [:]) -> ControlReply {
        var fields: [String: JSONValue] = ["cmd": "game", "action": .string(action)]
        for (key, value) in values { fields[key] = .string(value) }
        return stage.handle(.game(.object(fields)))
    }

    /// A recorded spoken game on camera `identity`, streaming: Ann agreed, the game
    /// open, a card selected, nothing sent yet.
    static func recordedGame(recording: any GameRecordingPort, camera identity: String) throws -> GameRig {
        let rig = try GameRig(camera: true)
        rig.game.recording = recording
        rig.stage.handle(.camera(CameraInput(frame: nil, message: nil, state: "streaming", live: true, identity: identity)))
        rig.stage.handle(.cameraFrame(ParticipantViewTests.splitFrame(sequence: 1)))
        #expect(rig.ctl("setup", ["players": "Ann,Bo", "response": "2", "recording": "on"]).ok)
        #expect(rig.ctl("consent", ["player": "Ann"]).ok)
        rig.ctl("open")
        rig.run(for: 0.1)
        #expect(rig.ctl("select", ["card": "poses.star", "rule": "simon"]).ok)
        return rig
    }

    var status: JSONValue { stage.gameDesk.status }
    var phase: String? { status["phase"]?.stringValue }
}

extension ControlReply {
    var ok: Bool { body["ok"]?.boolValue == true }
    var error: String? { body["error"]?.stringValue }
}

extension JSONValue {
    var arrayValue: [JSONValue]? { if case let .array(items) = self { return items }; return nil }
}
