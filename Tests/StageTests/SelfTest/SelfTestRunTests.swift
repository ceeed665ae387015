import Foundation
import Render
import Testing
@testable import Stage

/// A whole self-test on a stage driven as the kiosk's loop drives it: flips at 60 Hz,
/// taps on the outer card, a sound port that plays and a microphone that hears.
@Suite struct SelfTestRunTests {
    final class Port: SelfTestPort {
        var delay = 0.015
        func display(_ role: DisplayRole) -> DisplayFacts {
            DisplayFacts(connector: role == .inner ? "DP-1" : "HDMI-A-1", connected: true, modes: ["640x360@60*"],
                         chosen: VideoMode(width: 640, height: 360, refreshMillihertz: 60_000), why: "the monitor's preferred mode")
        }
        var camera: CameraFacts? { nil }
        var cameraCaptureCPU: Double? { nil }
        var outerTouchscreenName: String? { "rig outer touch" }
        var sound: SoundFacts { SoundFacts(output: "hw:Loopback,0", input: "hw:Loopback,1", outputProblem: nil, inputProblem: nil) }
        var toneAt: Double?
        func heard(since time: Double) -> HeardSound? {
            guard let toneAt else { return nil }
            let rate = 48000
            let lead = Int((toneAt + delay - time) * Double(rate))
            return HeardSound(time: time, sampleRate: rate,
                              samples: [Int16](repeating: 0, count: lead) + SelfTestTone.samples(rate: rate).map { $0 / 2 })
        }
        func storage(done: @escaping (StorageFacts) -> Void) {
            done(StorageFacts(folder: "/tmp", freeBytes: 100 << 30, totalBytes: 200 << 30, bytesPerMinute: 50 << 20,
                              syncSeconds: 0.003, writeProblem: nil))
        }
        var clock: ClockFacts { ClockFacts(synchronised: true, estimatedError: 0.001, chrony: true) }
        var network: NetworkFacts { NetworkFacts(enabled: false, address: nil, problem: nil, reachableFrom: "any") }
        func recorderTrial(seconds: Double, done: @escaping (RecorderCheck) -> Void) {
            done(RecorderCheck(trials: [RecorderTrial(preset: "veryfast", width: 640, height: 360, framesPerSecond: 30,
                                                      offered: 150, encoded: 150, dropped: 0, finishSeconds: 0.05,
                                                      cpuPerSecond: 0.4)]))
        }
    }

    final class Sound: SoundOutputPort {
        let port: Port
        let now: () -> Double
        var spoken: [String] = []
        /// false: a stuck card that takes the samples and never starts playing.
        var starts = true
        init(port: Port, now: @escaping () -> Double) {
            self.port = port
            self.now = now
        }
        var sampleRate: Int? { 48000 }
        var unavailableReason: String? { nil }
        func newGeneration() -> Int { 1 }
        func stream(_ samples: [Int16], rate: Int, generation: Int, slipped: @escaping (Double) -> Void,
                    report: @escaping (SoundReport) -> Void) -> Int? {
            guard starts else { return 1 }
            port.toneAt = now() + 0.02
            report(.started(time: now() + 0.02))
            return 1
        }
        func append(_ samples: [Int16], rate: Int, to stream: Int) {}
        func finish(_ stream: Int) {}
        func cancel(generation: Int) {}
        func speak(_ text: String, generation: Int, report: @escaping (SoundReport) -> Void) {
            spoken.append(text)
            report(.ended(time: now()))
        }
    }

    static let size = PixelSize(width: 640, height: 360)

    static func rig(mirror: Bool = false) throws -> (ManualClockStage, Port, Sound) {
        let fonts = try #require(RigStage.loadFonts().fonts)
        var settings = RigStage.Settings(outerSize: size)
        settings.readingDefaults.mirror = mirror
        let rig = ManualClockStage(settings: settings, innerSize: size, fonts: fonts, start: 100)
        let port = Port()
        let sound = Sound(port: port, now: { [clock = rig.clock] in clock.now })
        rig.stage.selfTests.port = port
        rig.stage.sound = sound
        rig.stage.handle(.participantTouch(true))
        return (rig, port, sound)
    }

    static var options: SelfTestRun.Options {
        var options = SelfTestRun.Options()
        options.flipSeconds = 1
        options.touchSeconds = 3
        options.taps = 3
        options.listenSeconds = 0.5
        options.speechSeconds = 2
        return options
    }

    /// Frames and flips on both displays at every vblank from now to `end`, as the
    /// loop would run them, with `during` called at each vblank first.
    static func run(_ rig: ManualClockStage, until end: Double, during: (Double) -> Void = { _ in }) throws {
        let inner = try Canvas(size: size), outer = try Canvas(size: size)
        var n = UInt64((rig.clock.now * 60).rounded(.up))
        while Double(n) / 60 <= end {
            let time = Double(n) / 60
            rig.advance(to: time)
            during(time)
            rig.frame(.inner, at: time, into: inner)
            rig.frame(.outer, at: time, into: outer)
            rig.stage.handle(.framePresented(.inner, FlipStamp(time: time, sequence: n)))
            rig.stage.handle(.framePresented(.outer, FlipStamp(time: time, sequence: n)))
            n += 1
        }
    }

    @Test func aWholeSelfTestReportsEveryStepInOrderWithItsFigures() throws {
        let (rig, _, sound) = try Self.rig()
        var printed: [String] = []
        rig.stage.selfTests.onStep = { printed.append($0.id) }
        #expect(rig.stage.startSelfTest(Self.options) == nil)
        #expect(rig.stage.startSelfTest(Self.options) == "a self-test is already running")
        var tapped: [Double] = []
        try Self.run(rig, until: 106) { time in
            // Three taps, half a second apart, once the card asks for them.
            if rig.stage.selfTests.run?.phase == .touch, tapped.count < 3, time >= (tapped.last ?? 101.2) + 0.5 {
                tapped.append(time)
                rig.stage.handle(.outerTap(time: time - 0.004))
            }
        }
        let report = try #require(rig.stage.selfTests.last)
        #expect(report.finished)
        #expect(printed == ["display.inner", "display.outer", "camera", "touch", "sound", "recording", "storage", "clock",
                            "network"])
        #expect(report.steps.map(\.verdict) == [.ok, .ok, .ok, .ok, .ok, .ok, .ok, .ok, .ok])
        let outer = report.steps[1]
        #expect(outer.figures["refresh_hz"] == .number(60))
        #expect(outer.figures["missed_vblanks"] == .int(0))
        // Each tap came 4 ms before a vblank whose frame was drawn after it: it reached
        // the glass 4 ms after the finger.
        let touch = report.steps[3]
        #expect(touch.figures["outer_taps"] == .int(3))
        #expect(touch.lines.first == "the outer display's touchscreen: rig outer touch")
        #expect(touch.figures["tap_to_flip_ms"] == [4.0, 4.0, 4.0])
        let heard = report.steps[4]
        #expect(heard.figures["latency_ms"] == .number(15))
        #expect(abs((heard.figures["level_dbfs"]?.numberValue ?? 0) + 12) < 1)
        #expect(heard.lines.contains("espeak-ng spoke a line"))
        #expect(sound.spoken.count == 1)
        #expect(rig.stage.handle(.selfTest(start: false, touchSeconds: nil)).body["selftest"]?["verdict"] == "ok")
    }

    @Test func tapsArrivingOnTheInnerDisplaySayTheTouchscreenIsOnTheWrongHead() throws {
        let (rig, _, _) = try Self.rig()
        _ = rig.stage.startSelfTest(Self.options)
        var touched: [Double] = []
        var touchEnded: Double?
        try Self.run(rig, until: 106) { time in
            let phase = rig.stage.selfTests.run?.phase
            if phase == .touch, touched.count < 3, time > 101.5 + Double(touched.count) * 0.5 {
                touched.append(time)
                rig.stage.handle(.innerTouch(phase: .down, x: 320, y: 200, time: time))
                rig.stage.handle(.innerTouch(phase: .up, x: 320, y: 200, time: time + 0.05))
            }
            if !touched.isEmpty, phase != .touch, touchEnded == nil { touchEnded = time }
        }
        let touch = try #require(rig.stage.selfTests.last?.steps.first { $0.id == "touch" })
        #expect(touch.verdict == .problem)
        #expect(touch.figures["inner_touches"] == .int(3))
        // The third touch on the inner settled it: the step ended then, not when its
        // 3 s were up.
        let third = try #require(touched.last), ended = try #require(touchEnded)
        #expect(ended > third && ended < third + 0.5, "touch step ended at \(ended), third touch at \(third)")
        #expect(touch.fix?.hasPrefix("The touchscreen is mapped to the wrong monitor.") == true)
        // The results stay on the inner display until a key closes them; the console is back.
        #expect(rig.stage.selfTests.run?.phase == .finished)
        rig.stage.handle(.key(KeyPress(code: 57, symbol: .space, time: 106.1)))
        #expect(rig.stage.selfTests.run == nil)
    }

    @Test func itNeverTakesTheDisplaysFromATalentReading() throws {
        let (rig, _, _) = try Self.rig()
        rig.open(id: "talk", title: "Talk", text: String(repeating: "A line to read. ", count: 200))
        rig.finishLayout()
        rig.controller.play(at: rig.clock.now)
        #expect(rig.stage.startSelfTest(Self.options) == "the prompter is playing: pause it first")
        #expect(rig.stage.selfTests.run == nil)
        rig.controller.pause(at: rig.clock.now)
        #expect(rig.stage.startSelfTest(Self.options) == nil)
        // Nor does a remote or `rig ctl` move the text behind the cards.
        #expect(rig.stage.handle(.play).body["error"] == "a self-test holds the displays (Escape at the console stops it)")
        #expect(rig.controller.engine.state(at: rig.clock.now) == .paused)
    }

    @Test func aSoundCardThatNeverStartsDoesNotHoldTheTest() throws {
        let (rig, _, sound) = try Self.rig()
        sound.starts = false
        var options = Self.options
        options.touchSeconds = 0
        _ = rig.stage.startSelfTest(options)
        try Self.run(rig, until: 112)
        let step = try #require(rig.stage.selfTests.last?.steps.first { $0.id == "sound" })
        #expect(step.verdict == .problem)
        #expect(step.lines.contains("the tone did not play: the tone did not start within 5 s"))
        #expect(rig.stage.selfTests.last?.finished == true)
    }

    @Test func theOuterCardIsMirroredAsTheTextIs() throws {
        var cards: [Canvas] = []
        for mirror in [false, true] {
            let (rig, _, _) = try Self.rig(mirror: mirror)
            _ = rig.stage.startSelfTest(Self.options)
            cards.append(try rig.canvas(.outer, at: 100.5))
        }
        let upright = cards[0], mirrored = cards[1]
        // Above the moving bar, the mirrored card is the upright one read right to left.
        var differing = 0, inked = 0
        for y in 0..<(Self.size.height * 3 / 4) {
            for x in 0..<Self.size.width {
                let a = upright.pixel(x: x, y: y), b = mirrored.pixel(x: Self.size.width - 1 - x, y: y)
                if a != b { differing += 1 }
                if a & 0xffffff != 0x15181d { inked += 1 }
            }
        }
        #expect(inked > 2000, "the card shows its words")
        #expect(differing == 0)
        #expect(!upright.hasSamePixels(as: mirrored))
    }
}
