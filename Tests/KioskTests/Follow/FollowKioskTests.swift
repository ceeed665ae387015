import Foundation
import Glibc
import Media
import Stage
import Testing
@testable import Kiosk

/// Voice follow through a running headless kiosk: espeak-ng reads a paragraph of the
/// GPL (a text the project did not write) into a WAV file, the kiosk opens the same
/// paragraph as its script, `rig ctl follow on` and `rig ctl listen FILE.wav` make it
/// hear the file in real time through the microphone path, and `rig ctl status`'s
/// `follow.word` must advance and end near the paragraph's last word.
@Suite(.serialized) struct FollowKioskTests {
    static let rate = 200
    /// The layout's text size and line pitch (rig.toml below): a line is 31.2 px.
    static let fontSize = 24.0
    static let lineSpacing = 1.3
    /// The fixed speed: too slow to reach the end of the passage in its reading time.
    static let speed = 10

    static func passage() throws -> String {
        let license = "/usr/share/common-licenses/GPL-3"
        let data = try #require(FileManager.default.contents(atPath: license), "\(license) missing")
        let paragraphs = String(decoding: data, as: UTF8.self).components(separatedBy: "Preamble")[1]
            .components(separatedBy: "\n\n").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .filter { !$0.isEmpty }
        return paragraphs[2]
    }

    @Test func followsAWavFileHeardThroughTheKiosk() throws {
        let speech = try SpeechSynthesizer.shared.synthesize(try Self.passage(), rate: Self.rate)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-follow-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scripts = folder.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try Data((speech.text + "\n").utf8).write(to: scripts.appendingPathComponent("passage.txt"))
        let wav = folder.appendingPathComponent("passage.wav")
        try WAVFile.data(samples: speech.samples, sampleRate: speech.sampleRate).write(to: wav)
        let kiosk = try FollowKiosk(folder: folder)
        func control(_ request: ControlRequest) -> JSONValue? { kiosk.control(request) }
        func poll(_ seconds: Double, until done: (JSONValue) -> Bool) -> JSONValue? { kiosk.poll(seconds, until: done) }
        #expect(poll(30) { _ in true } != nil, "the kiosk did not answer")
        #expect(control(.open("passage.txt"))?["ok"]?.boolValue == true)
        #expect(control(.play)?["ok"]?.boolValue == true)
        let opened = poll(10) { ($0["prompter"]?["max_offset"]?.numberValue ?? 0) > 0 }
        let maxOffset = try #require(opened?["prompter"]?["max_offset"]?.numberValue, "no layout")
        let lineHeight = Self.fontSize * Self.lineSpacing
        let on = control(.follow(true))
        #expect(on?["ok"]?.boolValue == true, "follow on: \(String(describing: on))")
        // The model is built on a worker; listening starts when it is ready.
        #expect(poll(20) { $0["follow"]?["listening"]?.boolValue == true } != nil, "follow never started listening")
        let listen = control(.listen(wav.path))
        #expect(listen?["ok"]?.boolValue == true, "listen: \(String(describing: listen))")

        let words = speech.text.split(whereSeparator: \.isWhitespace).count
        // Two lines' worth of words in this layout.
        let slackWords = Int((2 * lineHeight * Double(words) / maxOffset).rounded(.up))
        var seen: [Int] = []
        let duration = Double(speech.samples.count) / Double(speech.sampleRate)
        let deadline = Date() + duration + 8
        while Date() < deadline {
            if let word = control(.status)?["follow"]?["word"]?.numberValue.map(Int.init) {
                if seen.last != word { seen.append(word) }
                if word >= words - 1 { break }
            }
            usleep(250_000)
        }
        print("follow through the kiosk: \(words) words in \(String(format: "%.1f", duration)) s; follow.word went \(seen)")
        let last = try #require(seen.last, "follow.word never set")
        #expect(seen.count >= 5, "follow.word did not advance: \(seen)")
        #expect(last >= words - slackWords, "follow ended at word \(last) of \(words): \(seen)")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $1 >= $0 - 8 }, "follow.word stepped back more than 8 words: \(seen)")

        // The engine was steered: without follow, the fixed speed over the read would not reach
        // the end; with it, the reading line is on the talent's last lines.
        let offset = control(.status)?["prompter"]?["offset"]?.numberValue ?? 0
        print("follow through the kiosk: offset \(offset) of \(maxOffset) px after the read; 2 lines = \(slackWords) words")
        // max_offset is where the text's end reaches the reading line, a line past the
        // last line's top: the reading line on the last line is max_offset - 1 line.
        let lastLine = maxOffset - lineHeight
        #expect(Double(Self.speed) * (duration + 8) < lastLine - 2 * lineHeight,
                "the passage is too short to tell follow from the fixed speed")
        #expect(offset >= lastLine - 2 * lineHeight, "the engine was not steered to within 2 lines of the talent's last line")
        let off = control(.follow(false))
        #expect(off?["ok"]?.boolValue == true)
        let status = control(.status)
        #expect(status?["follow"]?["on"]?.boolValue == false)
        #expect(status?["prompter"]?["speed"]?.numberValue == Double(Self.speed), "follow off did not hand back the fixed speed")
        if seen.count < 5 || last < words - slackWords {
            print((try? String(contentsOf: folder.appendingPathComponent("kiosk.log"), encoding: .utf8)) ?? "")
        }
        withExtendedLifetime(kiosk) {}
    }

    /// `[follow] enabled = true`: on from the start, it follows the first script opened.
    @Test func enabledInRigTomlFollowsTheFirstScriptOpened() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-follow-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scripts = folder.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try Data((try Self.passage() + "\n").utf8).write(to: scripts.appendingPathComponent("passage.txt"))
        let kiosk = try FollowKiosk(folder: folder, extra: "[follow]\nenabled = true\n")
        let first = kiosk.poll(30) { _ in true }
        #expect(first?["follow"]?["on"]?.boolValue == true, "\(String(describing: first?["follow"]))")
        #expect(first?["follow"]?["listening"]?.boolValue == false)
        #expect(kiosk.control(.open("passage.txt"))?["ok"]?.boolValue == true)
        #expect(kiosk.poll(20) { $0["follow"]?["listening"]?.boolValue == true } != nil, "follow did not take up the opened script")
        #expect(kiosk.control(.follow(false))?["ok"]?.boolValue == true)
        #expect(kiosk.control(.status)?["follow"]?["on"]?.boolValue == false)
        withExtendedLifetime(kiosk) {}
    }

    /// A language without a speech model is refused with the reason, not followed.
    @Test func anotherLanguageIsRefusedWithTheReason() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-follow-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scripts = folder.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try Data("Guten Morgen, liebe Zuschauer.\n".utf8).write(to: scripts.appendingPathComponent("de.txt"))
        let kiosk = try FollowKiosk(folder: folder, extra: "[follow]\nlanguage = \"de\"\n")
        #expect(kiosk.poll(30) { _ in true } != nil, "the kiosk did not answer")
        #expect(kiosk.control(.open("de.txt"))?["ok"]?.boolValue == true)
        let reply = kiosk.control(.follow(true))
        #expect(reply?["ok"]?.boolValue == false)
        #expect(reply?["error"]?.stringValue?.contains("only English") == true, "\(String(describing: reply))")
        #expect(kiosk.control(.status)?["follow"]?["on"]?.boolValue == false)
        withExtendedLifetime(kiosk) {}
    }
}

/// A headless kiosk with a scripts folder, its control socket and state in `folder`.
private final class FollowKiosk {
    static let speed = FollowKioskTests.speed
    static let fontSize = FollowKioskTests.fontSize
    static let lineSpacing = FollowKioskTests.lineSpacing
    let process: RigProcess
    let socket: String

    init(folder: URL, extra: String = "") throws {
        socket = folder.appendingPathComponent("control.sock").path
        let config = """
            [displays]
            headless_width = 640
            headless_height = 360
            [camera]
            enabled = false
            [prompter]
            scripts_dir = "\(folder.appendingPathComponent("scripts").path)"
            speed = \(FollowKiosk.speed)
            font_size = \(Int(FollowKiosk.fontSize))
            line_spacing = \(FollowKiosk.lineSpacing)
            [control]
            socket = "\(socket)"
            [state]
            dir = "\(folder.appendingPathComponent("state").path)"
            \(extra)
            """
        try Data(config.utf8).write(to: folder.appendingPathComponent("rig.toml"))
        process = try RigProcess(["run", "--backend", "headless", "--config", folder.appendingPathComponent("rig.toml").path],
                                 standardError: folder.appendingPathComponent("kiosk.log"))
    }

    deinit {
        kill(process.pid, SIGTERM)
        _ = process.wait(seconds: 5)
    }

    func control(_ request: ControlRequest) -> JSONValue? {
        guard let connection = try? ControlConnection(path: socket) else { return nil }
        return try? connection.request(request, timeout: 5)
    }

    func poll(_ seconds: Double, until done: (JSONValue) -> Bool) -> JSONValue? {
        let deadline = Date() + seconds
        while Date() < deadline {
            if let status = control(.status), done(status) { return status }
            usleep(100_000)
        }
        return nil
    }
}
