import Foundation
import JSON
import Testing
@testable import Stage

/// The verdict rules of each self-test step, from the figures alone.
@Suite struct SelfTestCheckTests {
    static let mode60 = VideoMode(width: 1920, height: 1080, refreshMillihertz: 60000)
    static let facts = DisplayFacts(connector: "HDMI-A-1", connected: true, modes: ["1920x1080@60*", "1280x720@60"],
                                    chosen: mode60, why: "the monitor's preferred mode")

    /// Flips every `every` vblanks of a `hz` display for 5 s, each `late` s after its vblank.
    static func flips(hz: Double, every: Int = 1, late: (Int) -> Double = { _ in 0 }) -> [FlipStamp] {
        stride(from: 0, to: Int(hz * 5), by: every).map { n in
            FlipStamp(time: 100 + Double(n) / hz + late(n), sequence: UInt64(1000 + n))
        }
    }

    @Test func aDisplayAtItsModesRateIsOk() {
        let step = DisplayCheck(role: .outer, facts: Self.facts, flips: Self.flips(hz: 60), seconds: 5).step
        #expect(step.verdict == .ok)
        #expect(step.id == "display.outer")
        #expect(step.figures["missed_vblanks"] == .int(0))
        #expect(step.figures["refresh_hz"] == .number(60))
        #expect(step.lines.contains { $0.contains("refresh 60.00 Hz") })
    }

    @Test func aMonitorSlowerThanItsModeIsAProblem() {
        let step = DisplayCheck(role: .inner, facts: Self.facts, flips: Self.flips(hz: 50), seconds: 5).step
        #expect(step.verdict == .problem)
        #expect(step.fix?.contains("50.00 Hz, not the mode's 60.00 Hz") == true)
    }

    @Test func missedVblanksAndLateFlipsAreAWarning() {
        // Every 10th frame misses its vblank.
        var stamps = Self.flips(hz: 60)
        stamps.removeAll { ($0.sequence - 1000) % 10 == 5 }
        let missed = DisplayCheck(role: .outer, facts: Self.facts, flips: stamps, seconds: 5).step
        #expect(missed.verdict == .warning)
        #expect(missed.figures["missed_vblanks"] == .int(30))
        let late = DisplayCheck(role: .outer, facts: Self.facts, flips: Self.flips(hz: 60) { $0 % 7 == 0 ? 0.004 : 0 },
                                seconds: 5).step
        #expect(late.verdict == .warning)
        #expect(late.finding?.hasPrefix("flip timing: p50") == true)
    }

    @Test func aDriverWithoutAVblankCounterIsTimedAgainstItsMode() {
        // virtio-gpu: every flip carries the same sequence; the pacer counts late frames.
        var stamps = Self.flips(hz: 60).map { FlipStamp(time: $0.time, sequence: 0) }
        let even = DisplayCheck(role: .outer, facts: Self.facts, flips: stamps, seconds: 5).step
        #expect(even.verdict == .ok)
        #expect(even.figures["vblank_counter"] == false)
        #expect(even.figures["refresh_hz"] == .null)
        #expect(even.figures["flips_per_second"] == .number(60))
        #expect(even.lines.contains { $0.hasSuffix("the driver keeps no vblank counter, so the monitor's own refresh cannot be measured") })
        stamps.removeAll { Int(($0.time - 100) * 60 + 0.5) % 10 == 5 }
        let late = DisplayCheck(role: .outer, facts: Self.facts, flips: stamps, seconds: 5, pacerMissed: 30).step
        #expect(late.verdict == .warning)
        #expect(late.figures["missed_vblanks"] == .int(30))
        #expect(abs((late.figures["flips_per_second"]?.numberValue ?? 0) - 54) < 0.1)
    }

    @Test func noMonitorOrNoFlipIsAProblemThatNamesTheConnector() {
        var unplugged = Self.facts
        unplugged.connected = false
        let none = DisplayCheck(role: .outer, facts: unplugged, flips: [], seconds: 5).step
        #expect(none.verdict == .problem)
        #expect(none.fix?.contains("HDMI-A-1") == true)
        let still = DisplayCheck(role: .outer, facts: Self.facts, flips: [], seconds: 5).step
        #expect(still.verdict == .problem)
        #expect(still.lines.contains("no frame reached the monitor in 5 s"))
    }

    @Test func touchesOnTheInnerInsteadOfTheOuterSayTheMappingIsWrong() {
        let wrong = TouchCheck(outerTouchscreen: true, outerTaps: 0, innerTouches: 5, latencies: [], wanted: 5, seconds: 20).step
        #expect(wrong.verdict == .problem)
        #expect(wrong.lines.first == "the taps on the outer display's card arrived on the inner display")
        #expect(wrong.fix?.contains("[touch] device") == true)
        let none = TouchCheck(outerTouchscreen: false, outerTaps: 0, innerTouches: 0, latencies: [], wanted: 5, seconds: 20).step
        #expect(none.verdict == .problem)
        let idle = TouchCheck(outerTouchscreen: true, outerTaps: 0, innerTouches: 0, latencies: [], wanted: 5, seconds: 20).step
        #expect(idle.verdict == .warning)
        let good = TouchCheck(outerTouchscreen: true, outerTaps: 5, innerTouches: 0,
                              latencies: [0.030, 0.025, 0.041, 0.028, 0.033], wanted: 5, seconds: 4).step
        #expect(good.verdict == .ok)
        #expect(good.figures["tap_to_flip_median_ms"] == .number(30))
        let slow = TouchCheck(outerTouchscreen: true, outerTaps: 3, innerTouches: 0, latencies: [0.2, 0.15, 0.3],
                              wanted: 5, seconds: 20).step
        #expect(slow.verdict == .warning)
    }

    static func camera(_ streaming: CameraFacts.Streaming?) -> CameraFacts {
        CameraFacts(device: "/dev/video0", requestedWidth: 1920, requestedHeight: 1080, requestedFramesPerSecond: 30,
                    state: streaming == nil ? "unavailable: no such device" : "streaming", streaming: streaming,
                    offered: ["YUYV: 640x480@30"])
    }

    @Test func cameraVerdicts() {
        #expect(CameraCheck(facts: nil, frames: 0, seconds: 5).step.verdict == .ok)
        #expect(CameraCheck(facts: Self.camera(nil), frames: 0, seconds: 5).step.verdict == .problem)
        let native = CameraFacts.Streaming(format: "YUYV", width: 1920, height: 1080, framesPerSecond: 30, emulated: false)
        #expect(CameraCheck(facts: Self.camera(native), frames: 150, seconds: 5).step.verdict == .ok)
        let shown = CameraCheck(facts: Self.camera(native), frames: 150, seconds: 5, latencies: [0.04, 0.06, 0.05]).step
        #expect(shown.verdict == .ok)
        #expect(shown.figures["frame_to_flip_median_ms"] == .number(50))
        #expect(shown.lines.contains("capture to the talent's display: median 50 ms, p99 60 ms, slowest 60 ms over 3 frames"))
        #expect(CameraCheck(facts: Self.camera(native), frames: 150, seconds: 5, latencies: [0.2, 0.25]).step.verdict == .warning)
        let ahead = CameraCheck(facts: Self.camera(native), frames: 150, seconds: 5, latencies: [-0.01, 0.02, -0.009]).step
        #expect(ahead.figures["frame_to_flip_median_ms"] == nil)
        #expect(ahead.figures["frame_to_flip_comparable"] == false)
        #expect(ahead.lines.contains { $0.hasPrefix("the camera's timestamps run ahead of the display's flips (2 of 3 frames") })
        let slow = CameraCheck(facts: Self.camera(native), frames: 75, seconds: 5).step
        #expect(slow.verdict == .warning)
        #expect(slow.figures["measured_fps"] == .number(15))
        #expect(slow.finding == "75 frames in 5 s: 15.0 fps")
        var mjpeg = native
        mjpeg.emulated = true
        let decoded = CameraCheck(facts: Self.camera(mjpeg), frames: 150, seconds: 5).step
        #expect(decoded.verdict == .warning)
        #expect(decoded.lines.contains { $0.contains("decoded from MJPEG by libv4l2") })
        var costed = CameraCheck(facts: Self.camera(mjpeg), frames: 150, seconds: 5)
        costed.captureCPUPerFrame = 0.0084
        #expect(costed.step.lines.contains("the capture thread uses 8.4 ms of CPU per frame, most of it libv4l2 decoding MJPEG"))
        #expect(costed.step.figures["capture_cpu_ms_per_frame"] == .number(8.4))
        let small = CameraFacts.Streaming(format: "YUYV", width: 640, height: 480, framesPerSecond: 30, emulated: false)
        let tiny = CameraCheck(facts: Self.camera(small), frames: 150, seconds: 5).step
        #expect(tiny.verdict == .problem)
        #expect(tiny.lines.first == "the camera gives 640x480 at the rate asked: less than half the 1920x1080 asked for")
    }

    @Test func theToneIsFoundWithItsDelayAndLevel() {
        let rate = 48000
        let tone = SelfTestTone.samples(rate: rate)
        // 0.2 s of faint noise, then the tone 12 ms after it was played at t = 10.2.
        var samples = (0..<Int(0.212 * Double(rate))).map { Int16(($0 * 7919) % 61 - 30) }
        samples += tone.map { Int16(Double($0) * 0.25) } + [Int16](repeating: 0, count: rate / 2)
        let heard = HeardSound(time: 10.0, sampleRate: rate, samples: samples)
        let found = SelfTestTone.find(in: heard, playedAt: 10.2)
        #expect(found != nil)
        #expect(abs((found?.latency ?? 1) - 0.012) <= 0.006)
        // A quarter of -6 dBFS is -18 dBFS.
        #expect(abs((found?.level ?? 0) + 18) < 1.5)
        let silence = HeardSound(time: 10.0, sampleRate: rate, samples: [Int16](repeating: 0, count: rate))
        #expect(SelfTestTone.find(in: silence, playedAt: 10.2) == nil)
    }

    @Test func soundVerdicts() {
        let facts = SoundFacts(output: "hw:Loopback,0", input: "hw:Loopback,1", outputProblem: nil, inputProblem: nil)
        let heard = SelfTestTone.Found(latency: 0.02, level: -12)
        #expect(SoundCheck(facts: facts, tone: .success(1), found: heard, speech: .ended(time: 3)).step.verdict == .ok)
        let deaf = SoundCheck(facts: facts, tone: .success(1), found: nil, speech: .ended(time: 3)).step
        #expect(deaf.verdict == .problem)
        #expect(deaf.fix?.hasPrefix("No sound heard: is the microphone muted or too far") == true)
        #expect(deaf.json["finding"] == "the tone was played but not heard back")
        var mute = facts
        mute.outputProblem = "the card was unplugged"
        #expect(SoundCheck(facts: mute, tone: nil, found: nil, speech: nil).step.verdict == .problem)
        #expect(SoundCheck(facts: facts, tone: .success(1), found: SelfTestTone.Found(latency: 0.02, level: -55),
                           speech: .ended(time: 3)).step.verdict == .warning)
        #expect(SoundCheck(facts: facts, tone: .success(1), found: heard, speech: .failed("no voice")).step.verdict == .warning)
    }

    @Test func storageVerdicts() {
        let perMinute: Int64 = 50 << 20
        func facts(free: Int64, sync: Double? = 0.004, problem: String? = nil) -> StorageFacts {
            StorageFacts(folder: "/var/lib/rig/recordings", freeBytes: free, totalBytes: 100 << 30,
                         bytesPerMinute: perMinute, syncSeconds: sync, writeProblem: problem)
        }
        #expect(StorageCheck(facts: facts(free: perMinute * 500)).step.verdict == .ok)
        #expect(StorageCheck(facts: facts(free: perMinute * 30)).step.verdict == .warning)
        let full = StorageCheck(facts: facts(free: perMinute * 2)).step
        #expect(full.verdict == .problem)
        #expect(full.lines.first == "the disk is nearly full: 2 minutes of recording left")
        let refused = StorageCheck(facts: facts(free: 0, sync: nil, problem: "No space left on device")).step
        #expect(refused.verdict == .problem)
        #expect(refused.fix?.hasPrefix("The disk is full.") == true)
        #expect(StorageCheck(facts: facts(free: perMinute * 500, sync: 0.6)).step.verdict == .warning)
        // The recorder keeps 512 MB free: 480 MB free records nothing.
        var reserved = facts(free: 480 << 20)
        reserved.reservedBytes = 512 << 20
        let short = StorageCheck(facts: reserved).step
        #expect(short.verdict == .problem)
        #expect(short.lines.first == "the recorder keeps 512 MB free and only 480 MB are: no take can start")
        #expect(RecorderCheck(failure: "Not enough free space", spaceShort: true).step.fix?.hasSuffix("see Storage.") == true)
    }

    static func trial(_ preset: String, dropped: Int, finish: Double = 0.1) -> RecorderTrial {
        RecorderTrial(preset: preset, width: 1920, height: 1080, framesPerSecond: 30, offered: 150, encoded: 150 - dropped,
                      dropped: dropped, finishSeconds: finish, cpuPerSecond: 1.4)
    }

    @Test func recorderVerdicts() {
        let kept = RecorderCheck(trials: [Self.trial("veryfast", dropped: 0)]).step
        #expect(kept.verdict == .ok)
        #expect(kept.lines.first == "trial encode, preset veryfast at 1920x1080, 30 fps: 150 of 150 frames encoded, 0 dropped, closed 100 ms after the last; CPU 1.40 cores")
        let behind = RecorderCheck(trials: [Self.trial("medium", dropped: 12), Self.trial("fast", dropped: 0)]).step
        #expect(behind.verdict == .problem)
        #expect(behind.fix?.hasPrefix("Set [recording] preset = \"fast\"") == true)
        #expect(behind.figures["suggested_preset"] == "fast")
        let backlog = RecorderCheck(trials: [Self.trial("veryfast", dropped: 0, finish: 2.5)]).step
        #expect(backlog.verdict == .problem)
        #expect(RecorderCheck(skipped: "recording is off ([recording] enabled = false)").step.verdict == .ok)
        #expect(RecorderCheck(failure: "libx264 missing").step.verdict == .problem)
        #expect(RecorderCheck.faster(than: "veryfast") == "superfast")
        #expect(RecorderCheck.faster(than: "ultrafast") == nil)
    }

    @Test func theReportPrintsAndSerialisesEveryStep() {
        var report = SelfTestReport(started: "2026-12-03T08:00:00Z")
        report.steps = [ClockFacts(synchronised: true, estimatedError: 0.0004, chrony: true).step,
                        NetworkFacts(enabled: true, address: nil, problem: "waiting for an address", reachableFrom: "any").step]
        report.finished = true
        #expect(report.verdict == .problem)
        #expect(report.summary == "Self-test: 1 problem(s), 0 warning(s) in 2 checks.")
        let json = report.json
        #expect(json["verdict"] == "problem")
        #expect(json["finished"] == true)
        #expect(json["steps"]?.arrayValue?.map { $0["id"] } == ["clock", "network"])
        #expect(JSONValue.parse(Data(json.serialized.utf8)) == json)
        // `rig selftest` reads a running kiosk's steps back from this JSON.
        #expect(report.steps.compactMap { SelfTestStep(json: $0.json) }.map(\.text) == report.steps.map(\.text))
        #expect(report.steps[0].text == ["ok      Clock", "        the clock is synchronised (estimated error 0.4 ms)"])
        #expect(report.steps[1].text.last?.hasPrefix("        fix: Connect the rig to the network") == true)
    }
}
