import Foundation
import Glibc
import Media
import Stage
import Testing
@testable import Kiosk

/// Voice follow through a running headless kiosk, end to end: the passage of
/// `FollowPassage` (two paragraphs of the GPL, a text the project did not write, read
/// by espeak-ng at 165 words a minute, a 3 s pause, then 230) goes into a WAV file, the
/// kiosk opens the same text as its script, `rig ctl follow on` and `rig ctl listen
/// FILE.wav` make it hear the file in real time through the microphone path, and
/// `rig ctl status` is read four times a second on a deadline schedule. espeak-ng's word
/// events are the truth; lines are the kiosk's own layout lines (`prompter.line`, the
/// line on the reading line, and `follow.line_starts`, which word starts each line).
@Suite(.serialized) struct FollowKioskTests {
    /// The layout's text size and line pitch (rig.toml below): a line is 31.2 px.
    static let fontSize = 24.0
    static let lineSpacing = 1.3
    /// The fixed speed: too slow to reach the end of the passage in its reading time.
    static let speed = 10
    static let samplesPerSecond = 4.0

    static func passage() throws -> String {
        let license = "/usr/share/common-licenses/GPL-3"
        let data = try #require(FileManager.default.contents(atPath: license), "\(license) missing")
        let paragraphs = String(decoding: data, as: UTF8.self).components(separatedBy: "Preamble")[1]
            .components(separatedBy: "\n\n").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .filter { !$0.isEmpty }
        return paragraphs[2]
    }

    /// One reading of `rig ctl status` during the read.
    struct Sample {
        /// Seconds into the audio (status `time` minus the listen's start).
        let t: Double
        let offset: Double
        /// The layout line on the reading line, and the line of the word being spoken.
        let line: Int
        let spokenLine: Int
        let followWord: Int?
        let heard: String
    }

    /// The machine's load: the test is real time, so a failure says how busy it was.
    static var load: String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3)
            .joined(separator: " ") + " (nproc \(ProcessInfo.processInfo.activeProcessorCount))"
    }

    @Test func followsTheSpokenWordEverySecondThroughTheKiosk() throws {
        let passage = try FollowPassage.gpl()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-follow-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scripts = folder.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try Data((passage.text + "\n").utf8).write(to: scripts.appendingPathComponent("passage.txt"))
        let wav = folder.appendingPathComponent("passage.wav")
        try WAVFile.data(samples: passage.audio, sampleRate: SpeechRecognizer.sampleRate).write(to: wav)
        let kiosk = try FollowKiosk(folder: folder)
        #expect(kiosk.poll(30) { _ in true } != nil, "the kiosk did not answer")
        #expect(kiosk.control(.open("passage.txt"))?["ok"]?.boolValue == true)
        #expect(kiosk.control(.play)?["ok"]?.boolValue == true)
        let opened = kiosk.poll(10) { ($0["prompter"]?["max_offset"]?.numberValue ?? 0) > 0 }
        let maxOffset = try #require(opened?["prompter"]?["max_offset"]?.numberValue, "no layout")
        // The truth counts words as the kiosk does.
        #expect(opened?["prompter"]?["words"]?.numberValue.map(Int.init) == passage.script.words.count)
        let on = kiosk.control(.follow(true))
        #expect(on?["ok"]?.boolValue == true, "follow on: \(String(describing: on))")
        // The model is built on a worker; listening starts when it is ready.
        let listening = kiosk.poll(20) {
            $0["follow"]?["listening"]?.boolValue == true && ($0["follow"]?["line_starts"]?.arrayValue?.isEmpty == false)
        }
        let starts = try #require(listening?["follow"]?["line_starts"]?.arrayValue?.compactMap { $0.numberValue.map(Int.init) },
                                  "follow never started listening with a layout")
        func line(ofWord word: Int) -> Int { starts.lastIndex { $0 <= word } ?? 0 }
        let listen = kiosk.control(.listen(wav.path))
        let started = try #require(listen?["started"]?.numberValue, "listen: \(String(describing: listen))")

        // Four readings a second, each on its deadline (not a sleep after the last one).
        var samples: [Sample] = []
        let origin = Date()
        var next = 0.0
        while samples.last.map({ $0.t < passage.duration + 2 }) ?? true, Date().timeIntervalSince(origin) < passage.duration + 15 {
            let wait = next - Date().timeIntervalSince(origin)
            if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
            next += 1 / Self.samplesPerSecond
            guard let status = kiosk.control(.status), let time = status["time"]?.numberValue,
                  let offset = status["prompter"]?["offset"]?.numberValue,
                  let shown = status["prompter"]?["line"]?.numberValue else { continue }
            let t = time - started
            samples.append(Sample(t: t, offset: offset, line: Int(shown), spokenLine: line(ofWord: passage.spokenWord(at: t)),
                                  followWord: status["follow"]?["word"]?.numberValue.map(Int.init),
                                  heard: status["follow"]?["heard"]?.stringValue ?? ""))
        }
        let lastLine = line(ofWord: passage.script.words.count - 1)
        let load = Self.load
        print(String(format: "follow through the kiosk: %d words on %d lines, %.1f s of audio (pause %.1f-%.1f s), %d readings, load %@",
                     passage.script.words.count, lastLine + 1, passage.duration, passage.pauseStart, passage.secondStart,
                     samples.count, load))
        for sample in samples {
            print(String(format: "  t=%5.2f reading line %2d spoken line %2d offset %6.1f follow.word %@ heard \"%@\"", sample.t,
                         sample.line, sample.spokenLine, sample.offset, sample.followWord.map(String.init) ?? "-", sample.heard))
        }

        // At every second of the read (the first reading at or after it), the reading
        // line is within 2 lines of the spoken word: the issue's bar, every second, except
        // the first second after the pause. There the talent skips the lines of the
        // direction between the paragraphs (four lines down in this layout): no
        // recogniser can place them there before it hears a word, and the reading line may
        // not run ahead of the word spoken last during the pause (checked below). That
        // second has its own bar below: caught up within 1 s.
        let catchUp = passage.secondStart..<(passage.secondStart + 1)
        let seconds = (1...Int(passage.duration)).compactMap { k in samples.first { $0.t >= Double(k) } }
            .filter { !catchUp.contains($0.t) }
        let misses = seconds.filter { abs($0.line - $0.spokenLine) > 2 }
        let within = samples.filter { abs($0.line - $0.spokenLine) <= 2 }.count
        print(String(format: "follow through the kiosk: %d of %d seconds within 2 lines (%d of %d readings)",
                     seconds.count - misses.count, seconds.count, within, samples.count))
        #expect(seconds.count >= Int(passage.duration) - 2, "readings missing: \(seconds.count) seconds")
        #expect(misses.isEmpty, "seconds off by more than 2 lines: \(misses.map { String(format: "%.1f", $0.t) }) (load \(load))")

        // The pause holds: no reading line past the word spoken last, and from 1.5 s in
        // (follow waits 1.2 s, then eases out) the text stands still.
        let pause = samples.filter { $0.t >= passage.pauseStart && $0.t < passage.secondStart }
        #expect(pause.count >= 10, "too few readings in the pause")
        #expect(pause.allSatisfy { $0.line <= $0.spokenLine }, "the reading line moved beyond the spoken word in the pause")
        let still = pause.filter { $0.t >= passage.pauseStart + 1.5 }
        let heldAt = still.first?.offset ?? .nan
        #expect(still.allSatisfy { abs($0.offset - heldAt) <= 1 }, "the text moved during the pause: \(still.map(\.offset))")

        // It catches up within 1 s after the pause: moving again, and within 2 lines of
        // the talent at every reading from then on.
        let after = samples.filter { $0.t >= passage.secondStart + 1 }
        #expect(after.first.map { $0.offset > heldAt + 1 } == true, "the text had not moved on 1 s after the pause (load \(load))")
        #expect(after.filter { $0.t <= passage.secondStart + 3 }.allSatisfy { abs($0.line - $0.spokenLine) <= 2 },
                "not caught up 1 s after the pause")

        // The engine was steered: the fixed speed alone would not be near the end.
        #expect(Double(Self.speed) * (passage.duration + 2) < maxOffset / 2, "the passage is too short to tell follow from the fixed speed")
        #expect(samples.last.map { $0.line >= lastLine - 2 } == true, "the read ended with the reading line off the last lines")
        let off = kiosk.control(.follow(false))
        #expect(off?["ok"]?.boolValue == true)
        let status = kiosk.control(.status)
        #expect(status?["follow"]?["on"]?.boolValue == false)
        #expect(status?["prompter"]?["speed"]?.numberValue == Double(Self.speed), "follow off did not hand back the fixed speed")
        if !misses.isEmpty {
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

private extension JSONValue {
    var arrayValue: [JSONValue]? { if case let .array(items) = self { return items }; return nil }
}
