import Durable
import Foundation
import Game
import Media
import Prompter

/// `rig _power-cut --dir DIR --log FILE --session-seed FILE --take NAME`: writes, round
/// after round until killed, what the kiosk writes during a show, through the kiosk's
/// own writers: resume state and reading settings (ResumeStore, SettingsStore), an
/// edited script (ScriptLibrary.save), the game session (GameSessionFile) and a camera
/// take (Recorder, synthetic frames). After every completed round it appends
/// `round N frames F` to FILE, which lives off the disk under test (the virtual rig's
/// io share), so it survives the cut and says what was durable.
///
/// `rig _power-cut --check --dir DIR --log FILE`, after the next boot: every file is the
/// last logged round or the one after it, complete, and the take plays to its end.
/// Prints one JSON line. Hidden from `rig --help`; vrig/tests/power_cut.py runs both.
enum PowerCutCommand: Command {
    static let name = "_power-cut"
    static let summary = "Test aid: write state, a script, a game session and a take until killed; or check them"
    static let help = """
        Usage: rig _power-cut --dir DIR --log FILE --session-seed FILE --take NAME [--rounds N]
               rig _power-cut --check --dir DIR --log FILE
        """

    static let scriptID = "Cut.txt"
    /// The take's picture: small, so x264 keeps up under TCG.
    static let width = 160, height = 120, frameRate = 15.0

    static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32 {
        let check = arguments.flag("--check")
        guard let dir = try arguments.option("--dir") else { throw .usage("--dir is required") }
        guard let log = try arguments.option("--log") else { throw .usage("--log is required") }
        let seed = try arguments.option("--session-seed")
        let take = try arguments.option("--take")
        let rounds = Int(try arguments.option("--rounds") ?? "") ?? Int.max
        try arguments.finish()
        let root = URL(fileURLWithPath: dir)
        if check { return PowerCutCheck(root: root, log: log).run() }
        guard let seed, let take else { throw .usage("--session-seed and --take are required to write") }
        try write(root: root, log: log, seed: URL(fileURLWithPath: seed), take: take, rounds: rounds)
        return 0
    }

    /// The script's text in round `n`: many lines, so a write spans several pages, and
    /// each names its round, so a torn or mixed file shows.
    static func scriptText(round n: Int) -> String {
        (0..<600).map { "round \(n) line \($0): the quick brown fox jumps over the lazy dog" }.joined(separator: "\n") + "\n"
    }

    /// The font size written in round `n`, as the settings clamp it.
    static func fontSize(round n: Int) -> Int {
        var settings = ReadingSettings.standard
        settings.fontSize = 30 + n % 90
        return settings.fontSize
    }

    static let resumeScript = String(repeating: "a-long-script-name/", count: 200) + "take.md"

    /// Writes `rounds` rounds (the power-cut test: until killed).
    static func write(root: URL, log: String, seed: URL, take: String, rounds: Int) throws(CLIError) {
        let state = root.appendingPathComponent("state")
        let resume = ResumeStore(directory: state)
        let settings = SettingsStore(directory: state)
        let library: ScriptLibrary
        let base: SavedSession
        do {
            library = try ScriptLibrary(root: root.appendingPathComponent("scripts"))
            if library.entry(id: scriptID) == nil {
                try AtomicFile.write(Data(scriptText(round: 0).utf8), to: root.appendingPathComponent("scripts/\(scriptID)"))
                _ = library.refresh()
            }
            base = try JSONDecoder().decode(SavedSession.self, from: Data(contentsOf: seed))
        } catch {
            throw .failed("set-up: \(error)")
        }
        let session = GameSessionFile(url: root.appendingPathComponent("game/session.json"))
        let recordings = root.appendingPathComponent("recordings").path
        try? FileManager.default.createDirectory(atPath: recordings, withIntermediateDirectories: true)
        var recorderSettings = RecorderSettings()
        recorderSettings.minimumFreeBytes = 4 * 1_048_576
        recorderSettings.nominalFrameRate = Int(frameRate)
        let start = MonotonicTime.now()
        let recorder: Recorder
        do {
            recorder = try Recorder(folder: recordings, name: take,
                                    video: VideoTrackFormat(format: .yuyv, width: width, height: height),
                                    audio: nil, origin: start, settings: recorderSettings)
        } catch {
            throw .failed("start the take: \(error)")
        }
        guard let logFile = FileHandle(forWritingAtPath: log) ?? {
            FileManager.default.createFile(atPath: log, contents: nil)
            return FileHandle(forWritingAtPath: log)
        }() else { throw .failed("cannot open \(log)") }
        logFile.seekToEndOfFile()
        var frames = 0
        var round = 0
        while round < rounds {
            round += 1
            do {
                try resume.save(ResumeState(scriptID: resumeScript, offset: Double(round), wordIndex: round))
                try settings.update { $0.fontSize = fontSize(round: round) }
                _ = try library.save(id: scriptID, text: scriptText(round: round))
                var saved = base
                saved.lastGeneration = UInt64(round)
                try session.save(saved)
            } catch {
                throw .failed("round \(round): \(error)")
            }
            // Frames on the camera's schedule, whatever the rounds cost.
            let now = MonotonicTime.now()
            while start + Double(frames) / frameRate <= now {
                recorder.append(frame(frames, timestamp: start + Double(frames) / frameRate))
                frames += 1
            }
            _ = recorder.takeEvents(now: now)
            logFile.write(Data("round \(round) frames \(frames)\n".utf8))
        }
    }

    /// A grey level that moves with the frame number, so every frame differs.
    private static func frame(_ index: Int, timestamp: Double) -> RecorderVideoFrame {
        var bytes = [UInt8](repeating: 128, count: width * height * 2)
        let luma = UInt8(16 + (index * 7) % 220)
        for i in stride(from: 0, to: bytes.count, by: 2) { bytes[i] = luma }
        return RecorderVideoFrame(format: .yuyv, width: width, height: height, bytesPerLine: width * 2,
                                  timestamp: timestamp, bytes: RecordedBytes(bytes))
    }
}
