import Foundation
import Testing
@testable import Fuzz
@testable import Kiosk

/// Every committed fuzz input through its target, in the normal (uninstrumented)
/// build: the seeds (fuzz/corpus/TARGET) keep the targets alive, and every crash the
/// fuzzers found (fuzz/regressions/TARGET, one file per crash, named for what it
/// broke) stays fixed. A crash here is the test failing: the test process dies.
@Suite struct FuzzRegressionTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("fuzz")

    static func inputs(_ kind: String, _ target: FuzzTarget) -> [URL] {
        let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func everySeedRuns(_ target: FuzzTarget) throws {
        let seeds = Self.inputs("corpus", target)
        #expect(!seeds.isEmpty, "fuzz/corpus/\(target.rawValue) has no seeds")
        for seed in seeds { target.run(try Data(contentsOf: seed)) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func everyPastCrashStaysFixed(_ target: FuzzTarget) throws {
        for input in Self.inputs("regressions", target) { target.run(try Data(contentsOf: input)) }
    }

    /// The first crash (toml++ 3.3's debug assertion in parse_key, in the fuzz build's
    /// header-only toml++): Debian's release library reports it as bad TOML, with its place.
    @Test func aStarInATableHeaderIsInvalidTOMLAtItsPlace() throws {
        let url = Self.fuzzFolder.appendingPathComponent("regressions/config/toml-assert-star-in-table-header.toml")
        let result = ConfigLoader.load(path: url.path)
        let problem = try #require(result.errors.first)
        #expect(problem.line == 1 && problem.column == 2)
        #expect(problem.message.hasPrefix("invalid TOML: Error while parsing key"))
    }

    /// The corner cases the issue names, whether or not a fuzzer has met them yet.
    @Test(arguments: FuzzTarget.allCases)
    func awkwardBytesRun(_ target: FuzzTarget) {
        let endlessLine = Data(repeating: UInt8(ascii: "a"), count: 200_000)
        let deepNesting = Data((String(repeating: "> [", count: 2_000) + String(repeating: "]", count: 2_000)).utf8)
        let deepJSON = Data((String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)).utf8)
        let deepTOML = Data(("a = " + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)).utf8)
        let awkward: [Data] = [
            Data(), Data([0]), Data([0xFF, 0xFE, 0x00]), Data([0xFE, 0xFF, 0xD8, 0x00]),
            Data([0xEF, 0xBB, 0xBF]), Data([0xC0, 0x80, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80]),
            endlessLine, deepNesting, deepJSON, deepTOML,
            Data("\u{202E}\u{0301}\u{200D}\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{E0001}\u{10FFFF}\u{0378}".utf8),
        ]
        for data in awkward { target.run(data) }
    }
}
