import Foundation
import Game
import Media
import Prompter

/// `rig _power-cut --check`: what a boot after a power cut finds (PowerCutCommand).
/// Each file must hold the last round the log says completed, or the round after it
/// (the one being written at the cut), in full; the take must decode to its end.
struct PowerCutCheck {
    let root: URL
    let log: String

    func run() -> Int32 {
        let (ok, report) = evaluate()
        let json = (try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])) ?? Data("{}".utf8)
        print(String(decoding: json, as: UTF8.self))
        return ok ? 0 : 1
    }

    /// The verdict and what was found (the JSON line's fields).
    func evaluate() -> (ok: Bool, report: [String: Any]) {
        let lastLine = (try? String(contentsOfFile: log, encoding: .utf8))?
            .split(separator: "\n").last { $0.hasPrefix("round ") && $0.split(separator: " ").count == 4 }
        let words = lastLine?.split(separator: " ") ?? []
        let round = words.count == 4 ? Int(words[1]) ?? 0 : 0
        let fedFrames = words.count == 4 ? Int(words[3]) ?? 0 : 0
        var problems: [String] = []
        var report: [String: Any] = ["loggedRound": round, "fedFrames": fedFrames]
        let allowed = [round, round + 1]

        let state = root.appendingPathComponent("state")
        let resume = ResumeStore(directory: state)
        if let problem = resume.problem { problems.append("resume state: \(problem)") }
        let offset = Int(resume.state?.offset ?? -1)
        report["resume"] = offset
        if !allowed.contains(offset) || resume.state?.scriptID != PowerCutCommand.resumeScript {
            problems.append("resume state holds round \(offset), not \(allowed)")
        }
        let settings = SettingsStore(directory: state)
        let size = settings.settings.fontSize
        report["fontSize"] = size
        if !allowed.map(PowerCutCommand.fontSize).contains(size) {
            problems.append("settings hold font size \(size), not round \(allowed)'s")
        }

        do {
            let library = try ScriptLibrary(root: root.appendingPathComponent("scripts"))
            let text = try library.readScript(id: PowerCutCommand.scriptID).source
            let scriptRound = allowed.first { PowerCutCommand.scriptText(round: $0) == text }
            report["script"] = scriptRound ?? -1
            if scriptRound == nil {
                problems.append("the script is not round \(allowed) in full (\(text.utf8.count) bytes, begins \(text.prefix(24).debugDescription))")
            }
        } catch {
            problems.append("the script: \(error)")
        }

        do {
            let saved = try GameSessionFile(url: root.appendingPathComponent("game/session.json")).load()
            let generation = saved.map { Int($0.lastGeneration) } ?? -1
            report["session"] = generation
            if !allowed.contains(generation) { problems.append("the game session holds round \(generation), not \(allowed)") }
        } catch {
            problems.append("the game session: \(error)")
        }

        checkTakes(into: &report, problems: &problems, fedFrames: fedFrames)
        report["problems"] = problems
        report["ok"] = problems.isEmpty
        return (problems.isEmpty, report)
    }

    /// The newest unfinished take (the one the cut interrupted) opens and decodes to its
    /// last frame. How much of what was fed made it is reported, not judged: the last
    /// fragment and the encoder's look-ahead may be lost. A take cut before its first
    /// fragment landed (the header is made durable with the first packet) has nothing
    /// to play, which is only allowed in its first seconds.
    private func checkTakes(into report: inout [String: Any], problems: inout [String], fedFrames: Int) {
        let early = fedFrames < Int(PowerCutCommand.frameRate * PowerCutCheck.firstFragmentSeconds)
        let partials = Recorder.incompleteFiles(in: root.appendingPathComponent("recordings").path)
        guard let newest = partials.max(by: { modified($0) < modified($1) }) else {
            if !early { problems.append("no unfinished take after \(fedFrames) frames were fed") }
            report["takeFrames"] = 0
            return
        }
        report["take"] = (newest as NSString).lastPathComponent
        do {
            let frames = try MediaReader(path: newest).decodeVideo()
            report["takeFrames"] = frames.count
            report["takeSeconds"] = frames.last.map { $0.time } ?? 0
            if frames.isEmpty && !early {
                problems.append("the take \(newest) holds no frame after \(fedFrames) were fed")
            }
        } catch {
            report["takeFrames"] = 0
            guard early else {
                problems.append("the take \(newest) does not play: \(error)")
                return
            }
            report["takeNote"] = "cut before its first fragment"
        }
        // Checked: out of the way, as the kiosk's recovery would (a failed one stays).
        try? FileManager.default.removeItem(atPath: newest)
    }

    /// Seconds of frames after which a take must have a fragment on the disk: the
    /// fragment length (0.5 s), x264's look-ahead and a slow guest's encoder queue.
    static let firstFragmentSeconds = 4.0

    private func modified(_ path: String) -> Date {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date) ?? .distantPast
    }
}
