import Foundation
import Stage
import Testing
@testable import Kiosk

@Suite struct AudioServiceTests {
    @Test func withNoOutputAPlayFailsAtOnceAndSaysWhy() throws {
        let loop = try EventLoop()
        var config = RigConfig.Audio()
        config.output = ""
        let service = try AudioService(config: config, mailbox: loop.mailbox)
        var reports: [AudioService.Report] = []
        let id = service.play(PreparedSound(samples: [1, 2, 3], sampleRate: 48000), generation: 9) { reports.append($0) }
        #expect(id == nil)
        #expect(reports == [.failed(generation: 9, reason: "no sound output configured ([audio] output is empty)")])
        #expect(service.statusJSON["output"]?["state"] == "off")
    }

    /// Bad text fails on the loop with the speech error, tagged with the generation.
    @Test func badTextIsReportedWithItsGeneration() throws {
        let loop = try EventLoop()
        var config = RigConfig.Audio()
        config.output = ""
        let service = try AudioService(config: config, mailbox: loop.mailbox)
        var reports: [AudioService.Report] = []
        service.speak("\u{7}\u{7}", generation: 4, report: { reports.append($0) })
        let deadline = loop.clock() + 5
        while reports.isEmpty && loop.clock() < deadline { loop.runOnce(timeout: 0.05) }
        #expect(reports == [.failed(generation: 4, reason: "nothing to say: the text is empty once control characters and unsupported symbols are removed")])
    }

    @Test func speakIsARequestOnTheWire() throws {
        let line = Data(#"{"cmd":"speak","text":"Touch your nose"}"#.utf8)
        #expect(try ControlRequest.parse(line).get() == .speak("Touch your nose"))
        #expect(ControlRequest.speak("Hi").json.serialized == #"{"cmd":"speak","text":"Hi"}"#)
    }
}

/// The fault path with no sound card: a PCM name ALSA does not know opens nothing.
@Suite struct AudioServiceFaultTests {
    @Test func aMissingDeviceIsUnavailableAndPlaysFailWithTheirGeneration() throws {
        let loop = try EventLoop()
        var config = RigConfig.Audio()
        config.output = "rig_no_such_pcm"
        let service = try AudioService(config: config, mailbox: loop.mailbox)
        var states: [AudioDeviceState] = []
        service.onStateChange = { _, state in states.append(state) }
        service.start()
        defer { service.stop() }
        let deadline = loop.clock() + 10
        while !(service.outputState?.isUnavailable ?? false) && loop.clock() < deadline { loop.runOnce(timeout: 0.05) }
        guard case let .unavailable(reason)? = service.outputState else {
            Issue.record("output state \(String(describing: service.outputState))")
            return
        }
        #expect(reason.hasPrefix("no sound device \"rig_no_such_pcm\""), "\(reason)")
        #expect(states.first == .starting)
        var reports: [AudioService.Report] = []
        service.play(PreparedSound(samples: [Int16](repeating: 100, count: 4800), sampleRate: 48000), generation: 7) {
            reports.append($0)
        }
        while reports.isEmpty && loop.clock() < deadline { loop.runOnce(timeout: 0.05) }
        #expect(reports == [.failed(generation: 7, reason: reason)])
        #expect(service.statusJSON["output"]?["state"] == "unavailable")
        #expect(service.statusJSON["last_playback"]?["state"] == "failed")
        #expect(service.failed == 1)
    }
}
