import Foundation
import Testing
@testable import Bench
@testable import Kiosk

/// `rig bench`'s voice follow case: its name, its table and its JSON.
@Suite struct FollowBenchTests {
    static let figures = FollowBench.Figures(words: 168, audioSeconds: 50.2, seconds: 51, accuracy: 0.98,
                                             latencyMedian: 0.14, latencyP90: 0.67, realTimeFactor: 0.034)

    @Test func theCaseIsNamedFollow() throws {
        #expect(try BenchCase.parse("follow") == .follow)
        #expect(throws: (any Error).self) { try BenchCase.parse("follow:fast") }
    }

    @Test func theTableHasTheThreeFiguresWithTheirGoals() {
        let text = FollowBench.lines(.success(Self.figures)).joined(separator: "\n")
        #expect(text.contains("| recognition real-time factor (CPU s per s of audio) | 0.034 | ≤ 0.25 |"))
        #expect(text.contains("| follow latency median (spoken word → reading line) | 0.14 s | ≤ 0.7 s |"))
        #expect(text.contains("| accuracy (seconds within 2 lines, of 51) | 98.0 % | ≥ 95 % |"))
        let failed = FollowBench.lines(.failure(.textMissing(path: "/nowhere"))).joined(separator: "\n")
        #expect(failed.contains("unavailable: /nowhere is missing"))
    }

    @Test func theJSONCarriesTheFiguresOrTheReason() throws {
        let object = try #require(try JSONSerialization.jsonObject(
            with: Data(FollowBench.json(.success(Self.figures)).rendered().utf8)) as? [String: Any])
        #expect(object["status"] as? String == "ok")
        #expect(object["real_time_factor"] as? Double == 0.034)
        #expect(object["latency_median_s"] as? Double == 0.14)
        #expect(object["accuracy"] as? Double == 0.98)
        let failed = try #require(try JSONSerialization.jsonObject(
            with: Data(FollowBench.json(.failure(.textMissing(path: "/nowhere"))).rendered().utf8)) as? [String: Any])
        #expect(failed["status"] as? String == "unavailable")
        #expect(FollowBench.json(nil).rendered() == "null")
    }
}
