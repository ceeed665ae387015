import Foundation
import Prompter
import Stage
import Testing
@testable import Kiosk

/// The real kiosk (`rig run --backend headless`, not the test pattern) stopped by
/// SIGTERM or SIGINT at random moments of its life: during start-up, idle, playing
/// (a resume write is due every second), and while a long script is being laid out.
/// Each stop must exit 0, log "rig stopped" and leave the reading position where the
/// text was when the signal came.
@Suite(.serialized) struct SignalStopTests {
    enum Moment: CaseIterable { case startUp, idle, playing, layingOut }

    /// A kiosk in a folder of its own: headless displays, no camera, its own socket.
    struct TestKiosk {
        let folder: URL
        var config: URL { folder.appendingPathComponent("rig.toml") }
        var socket: String { folder.appendingPathComponent("control.sock").path }
        var log: URL { folder.appendingPathComponent("kiosk.log") }
        var resume: URL { folder.appendingPathComponent("state/resume.json") }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-sig-\(UUID().uuidString.prefix(8))")
            let scripts = folder.appendingPathComponent("scripts")
            try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("state"), withIntermediateDirectories: true)
            let words = (0..<10_000).map { "word\($0 % 97)" }.joined(separator: " ")
            try Data(words.utf8).write(to: scripts.appendingPathComponent("long.txt"))
            try Data("# Take\n\nShort text to read, over and over.\n".utf8).write(to: scripts.appendingPathComponent("take.md"))
            let text = """
                [displays]
                headless_width = 640
                headless_height = 360
                [camera]
                enabled = false
                [prompter]
                scripts_dir = "\(scripts.path)"
                speed = 120
                [control]
                socket = "\(socket)"
                [state]
                dir = "\(folder.appendingPathComponent("state").path)"
                """
            try Data(text.utf8).write(to: config)
        }

        func request(_ request: ControlRequest) -> JSONValue? {
            guard let connection = try? ControlConnection(path: socket) else { return nil }
            return try? connection.request(request, timeout: 5)
        }

        /// Polls the socket until the kiosk answers, as a client would.
        func waitUntilAnswering(deadline: Date) -> Bool {
            while Date() < deadline {
                if request(.status) != nil { return true }
                usleep(20_000)
            }
            return false
        }
    }

    @Test func signalsStopTheRealKioskCleanlyAtRandomMoments() throws {
        var random = SplitMix(seed: UInt64(ProcessInfo.processInfo.environment["RIG_SIGNAL_SEED"] ?? "") ?? 20_261_201)
        for round in 0..<20 {
            let moment = Moment.allCases[round % Moment.allCases.count]
            let signal = round % 5 == 4 ? SIGINT : SIGTERM
            let kiosk = try TestKiosk()
            defer { try? FileManager.default.removeItem(at: kiosk.folder) }
            let process = try RigProcess(["run", "--backend", "headless", "--config", kiosk.config.path],
                                         standardError: kiosk.log)
            let delay = Double(random.next() % 1000) / 1000
            var offsetBefore: Double?
            var openedBefore: String?
            switch moment {
            case .startUp:
                // From the moment main has claimed the signals: before that the dynamic
                // loader is still mapping libraries and nothing of the kiosk exists yet.
                #expect(process.waitUntilMainThreadBlocks(SIGTERM, seconds: 10), "round \(round): never claimed")
                usleep(useconds_t(delay * 300_000))
            case .idle:
                #expect(kiosk.waitUntilAnswering(deadline: Date() + 20), "round \(round): never answered")
                usleep(useconds_t(delay * 300_000))
            case .playing:
                #expect(kiosk.waitUntilAnswering(deadline: Date() + 20), "round \(round): never answered")
                _ = kiosk.request(.open("take.md"))
                _ = kiosk.request(.play)
                usleep(useconds_t(200_000 + delay * 1_300_000))
                let status = kiosk.request(.status)
                offsetBefore = status?["prompter"]?["offset"]?.numberValue
                #expect((offsetBefore ?? 0) > 0, "round \(round): the text is not moving")
                openedBefore = "take.md"
            case .layingOut:
                #expect(kiosk.waitUntilAnswering(deadline: Date() + 20), "round \(round): never answered")
                _ = kiosk.request(.open("long.txt"))
                usleep(useconds_t(delay * 100_000))
            }
            let signalledAt = Date()
            kill(process.pid, signal)
            let ended = process.wait(seconds: 20)
            let stoppedAfter = Date().timeIntervalSince(signalledAt)
            let text = (try? String(contentsOf: kiosk.log, encoding: .utf8)) ?? ""
            let what = "round \(round) (\(moment), signal \(signal), delay \(delay))"
            #expect(ended && process.exitStatus == 0,
                    "\(what): exit status \(process.exitStatus.map(String.init) ?? "none"), killed by signal \(process.killedBy.map(String.init) ?? "none")\n\(text)")
            #expect(text.contains("rig stopped"), "\(what): no 'rig stopped' in the log\n\(text)")
            if let offsetBefore, let openedBefore {
                let saved = try? JSONDecoder().decode(ResumeState.self, from: Data(contentsOf: kiosk.resume))
                guard let state = saved else {
                    Issue.record("\(what): no reading position saved")
                    continue
                }
                #expect(state.scriptID == openedBefore, "\(what)")
                // The text kept moving at 120 px/s between the status read and the stop.
                #expect(state.offset >= offsetBefore && state.offset <= offsetBefore + 120 * (stoppedAfter + 0.5),
                        "\(what): saved \(state.offset) px, \(offsetBefore) px when signalled")
            }
        }
    }

    @Test func everyThreadOfTheKioskBlocksTheStopSignals() throws {
        let kiosk = try TestKiosk()
        defer { try? FileManager.default.removeItem(at: kiosk.folder) }
        let process = try RigProcess(["run", "--backend", "headless", "--config", kiosk.config.path],
                                     standardError: kiosk.log)
        #expect(kiosk.waitUntilAnswering(deadline: Date() + 20))
        _ = kiosk.request(.open("take.md"))
        _ = kiosk.request(.play)
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/task")
        #expect(tasks.count > 1, "the kiosk runs more than one thread, so the mask must be inherited")
        for task in tasks {
            let status = try String(contentsOfFile: "/proc/\(process.pid)/task/\(task)/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") })
            let mask = try #require(UInt64(line.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16))
            for number in [SIGTERM, SIGINT, SIGHUP] {
                #expect(mask & (1 << UInt64(number - 1)) != 0, "thread \(task) does not block signal \(number)")
            }
        }
    }
}

/// A small seeded generator, so a failing round can be replayed with RIG_SIGNAL_SEED.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
