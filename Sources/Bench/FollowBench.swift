import Foundation
import Glibc
import Kiosk
import Stage

/// Voice follow's figures, from the passage the end-to-end test hears (`FollowPassage`):
/// the recogniser's real-time factor with the script's own model (its thread's CPU
/// seconds per second of audio), the follow latency (a spoken word's start to the
/// reading line reaching it, median and p90), and the accuracy (the share of whole
/// seconds the reading line is within 2 lines of the spoken word).
enum FollowBench {
    static let goals = (realTimeFactor: 0.25, latencyMedian: 0.7, accuracy: 0.95)

    struct Figures: Sendable {
        var words: Int
        var audioSeconds: Double
        var seconds: Int
        var accuracy: Double
        var latencyMedian: Double
        var latencyP90: Double
        var realTimeFactor: Double
    }

    static func measure() -> Result<Figures, FollowPassageError> {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-bench-follow-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        do throws(FollowPassageError) {
            let passage = try FollowPassage.gpl()
            let run = try passage.follow(folder: folder)
            let latencies = run.latencies
            let p90 = latencies.isEmpty ? .infinity : latencies[min(latencies.count - 1, latencies.count * 9 / 10)]
            return .success(Figures(words: passage.script.words.count, audioSeconds: passage.duration,
                                    seconds: run.seconds.count, accuracy: run.accuracy,
                                    latencyMedian: run.latencyMedian, latencyP90: p90,
                                    realTimeFactor: run.realTimeFactor))
        } catch {
            return .failure(error)
        }
    }

    static func lines(_ result: Result<Figures, FollowPassageError>) -> [String] {
        var out = ["## Voice follow: the GPL passage (espeak-ng at 165 then 230 wpm, a 3 s pause; pocketsphinx, script model)", ""]
        switch result {
        case let .failure(error):
            out.append("unavailable: \(error)")
        case let .success(f):
            out.append(String(format: "%d words, %.1f s of audio", f.words, f.audioSeconds))
            out.append("")
            out.append("| measure | value | goal |")
            out.append("| --- | --- | --- |")
            out.append(String(format: "| recognition real-time factor (CPU s per s of audio) | %.3f | ≤ %.2f |",
                              f.realTimeFactor, goals.realTimeFactor))
            out.append(String(format: "| follow latency median (spoken word → reading line) | %.2f s | ≤ %.1f s |",
                              f.latencyMedian, goals.latencyMedian))
            out.append(String(format: "| follow latency p90 | %.2f s | - |", f.latencyP90))
            out.append(String(format: "| accuracy (seconds within 2 lines, of %d) | %.1f %% | ≥ %.0f %% |",
                              f.seconds, f.accuracy * 100, goals.accuracy * 100))
        }
        return out
    }

    static func json(_ result: Result<Figures, FollowPassageError>?) -> BenchJSON {
        switch result {
        case nil: return .null
        case let .failure(error): return .object([("status", .string("unavailable")), ("reason", .string(error.description))])
        case let .success(f):
            return .object([
                ("status", .string("ok")), ("words", .int(f.words)), ("audio_s", .number(f.audioSeconds)),
                ("real_time_factor", .number(f.realTimeFactor)), ("latency_median_s", .number(f.latencyMedian)),
                ("latency_p90_s", .number(f.latencyP90)), ("seconds", .int(f.seconds)), ("accuracy", .number(f.accuracy)),
            ])
        }
    }
}
