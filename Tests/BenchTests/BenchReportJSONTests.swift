import Foundation
import Testing
@testable import Bench
@testable import Kiosk
@testable import Stage

@Suite struct BenchReportJSONTests {
    func sampleReport() -> BenchReport {
        var report = BenchReport(command: "rig bench --json", isReleaseBuild: true, quick: true,
                                 machine: .init(cpuModel: "Test \"CPU\"", processors: 2, kernel: "6.1"),
                                 textFile: "bench/texts/t.txt", textWords: 10_000)
        report.floor = [.init(display: .fullHD, result: .measured(.init(medianMs: 0.5, p99Ms: 0.6, samples: 10)))]
        report.composition = [
            .init(display: .fullHD, sizePx: 60, transform: .identity,
                  result: .measured(.init(medianMs: 1.0, p99Ms: 2.0, samples: 10))),
            .init(display: .fullHD, sizePx: 60, transform: .init(mirror: true, flip: false, rotation: 90),
                  result: .unavailable("not built")),
        ]
        report.compositionAtPhaseSpeeds = [
            .init(display: .fullHD, sizePx: 60, transform: .init(mirror: false, flip: false, rotation: 90),
                  result: .measured(.init(medianMs: 0.4, p99Ms: 0.9, samples: 10)), piecesRasterized: 2, speed: 110),
        ]
        report.layout = [.init(display: .fullHD, sizePx: 60, lines: 1700,
                               result: .measured(.init(medianMs: 20, p99Ms: 25, samples: 3)))]
        report.pango = .ran(version: "Pango 1.50",
                            layout: [.init(display: "1920x1080", sizePx: 60, lines: 1688,
                                           result: .measured(.init(medianMs: 80, p99Ms: 90, samples: 3)))],
                            cases: [.init(mode: "naive", display: "1920x1080", sizePx: 60, lines: 1688,
                                          result: .measured(.init(medianMs: 100, p99Ms: 110, samples: 3))),
                                    .init(mode: "good", display: "1920x1080", sizePx: 60, lines: 1688,
                                          result: .measured(.init(medianMs: 0.4, p99Ms: 0.5, samples: 30)))],
                            samples: [.init(file: "persian.txt", lines: 60,
                                            result: .measured(.init(medianMs: 8, p99Ms: 9, samples: 4)))])
        report.sampleLayout = [.init(file: "persian.txt", script: "Persian", sizePx: 60, lines: 61,
                                     result: .measured(.init(medianMs: 2, p99Ms: 3, samples: 4)))]
        report.camera = .init(frame: "1920x1080 YUYV", ours: .unavailable("camera not built"),
                              gstreamer: .measured(.init(medianMs: 2.2, p99Ms: 2.3, samples: 40)),
                              gstreamerVersion: "GStreamer 1.22.0")
        report.memory = .init(rigKiB: 1000, pangoKiB: 2000, gstreamerKiB: nil)
        return report
    }

    func parsed(_ report: BenchReport) throws -> [String: Any] {
        let text = report.json().rendered()
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any])
    }

    @Test func topLevelKeysAreTheDocumentedOnesInOrder() throws {
        guard case let .object(pairs) = sampleReport().json() else {
            Issue.record("the report is not a JSON object")
            return
        }
        #expect(pairs.map(\.0) == BenchReport.topLevelKeys)
        let object = try parsed(sampleReport())
        #expect(object["schema"] as? String == "rig-bench/1")
        #expect(object["build"] as? String == "release")
    }

    @Test func theSchemaKeysAreDocumentedInTheReadme() throws {
        let readme = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("bench/README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        for key in BenchReport.topLevelKeys + ["ratio_to_floor", "ratio_to_naive", "ratio_to_good",
                                                "ratio_to_pango", "ratio_to_gstreamer", "median_ms", "p99_ms",
                                                "pieces_rasterized", "rig_peak_kib", "pango_peak_kib",
                                                "gstreamer_peak_kib"] {
            #expect(text.contains("`\(key)`"), "bench/README.md does not document `\(key)`")
        }
    }

    @Test func phaseSpeedRowsCarryTheirSpeedAndRatioToTheFloor() throws {
        let object = try parsed(sampleReport())
        let rows = try #require(object["composition_at_phase_speeds"] as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows[0]["speed_px_s"] as? Int == 110)
        #expect(rows[0]["rotation"] as? Int == 90)
        #expect(rows[0]["ratio_to_floor"] as? Double == 0.8)
        #expect(rows[0]["pieces_rasterized"] as? Int == 2)
        let text = BenchReportText(report: sampleReport()).rendered()
        #expect(text.contains("| 1920x1080 | rot90 | 110 | 0.400 | 0.900 | 0.80 | 2 |"), "\(text)")
    }

    @Test func compositionCarriesItsRatioToTheFloorOfTheSameDisplay() throws {
        let object = try parsed(sampleReport())
        let rows = try #require(object["composition"] as? [[String: Any]])
        #expect(rows.count == 2)
        #expect(rows[0]["ratio_to_floor"] as? Double == 2.0)
        #expect(rows[0]["status"] as? String == "ok")
        #expect(rows[1]["status"] as? String == "unavailable")
        #expect(rows[1]["reason"] as? String == "not built")
        #expect(rows[1]["median_ms"] == nil)
        #expect(rows[1]["ratio_to_floor"] is NSNull)
        #expect(rows[1]["rotation"] as? Int == 90)
        #expect(rows[1]["mirror"] as? Bool == true)
        #expect(rows[0]["pieces_rasterized"] is NSNull)
    }

    @Test func memoryReportsEachProcessAndNullWhenNotMeasured() throws {
        let memory = try #require(try parsed(sampleReport())["memory"] as? [String: Any])
        #expect(memory["rig_peak_kib"] as? Int == 1000)
        #expect(memory["pango_peak_kib"] as? Int == 2000)
        #expect(memory["gstreamer_peak_kib"] is NSNull)
    }

    @Test func peakMemoryIsReadFromVmHWM() {
        let status = "Name:\trig\nVmPeak:\t  900 kB\nVmHWM:\t   12345 kB\nVmRSS:\t 100 kB\n"
        #expect(BenchEnvironment.vmHWM(inStatus: status) == 12345)
        #expect(BenchEnvironment.vmHWM(inStatus: "Name:\trig\n") == nil)
    }

    @Test func pangoComparisonDividesOurUprightFrameByEachMode() throws {
        let object = try parsed(sampleReport())
        let rows = try #require(object["pango_comparison"] as? [[String: Any]])
        let row = try #require(rows.first { $0["display"] as? String == "1920x1080" && $0["size_px"] as? Int == 60 })
        #expect(row["ratio_to_naive"] as? Double == 0.01)
        #expect(row["ratio_to_good"] as? Double == 2.5)
        let missing = try #require(rows.first { $0["display"] as? String == "3840x2160" })
        #expect(missing["ours_median_ms"] is NSNull)
    }

    @Test func layoutAndCameraRatios() throws {
        let object = try parsed(sampleReport())
        let layout = try #require((object["layout"] as? [[String: Any]])?.first)
        #expect(layout["ratio_to_pango"] as? Double == 0.25)
        let camera = try #require(object["camera"] as? [String: Any])
        #expect(camera["ratio_to_gstreamer"] is NSNull)
        #expect((camera["ours"] as? [String: Any])?["status"] as? String == "unavailable")
        #expect((camera["gstreamer"] as? [String: Any])?["version"] as? String == "GStreamer 1.22.0")
    }

    @Test func sampleLayoutIsComparedWithPangosLayoutOfTheSameFile() throws {
        let rows = try #require(try parsed(sampleReport())["layout_samples"] as? [[String: Any]])
        #expect(rows.first?["ratio_to_pango"] as? Double == 0.25)
        #expect(rows.first?["pango_median_ms"] as? Double == 8)
        #expect(rows.first?["lines"] as? Int == 61)
    }

    @Test func unavailablePeerIsReportedWithItsReason() throws {
        var report = sampleReport()
        report.pango = .unavailable("/usr/bin/python3 not found")
        let object = try parsed(report)
        let pango = try #require(object["pango"] as? [String: Any])
        #expect(pango["status"] as? String == "unavailable")
        #expect(pango["reason"] as? String == "/usr/bin/python3 not found")
    }

    @Test func stringsAreEscaped() {
        #expect(BenchJSON.string("a\"b\\c\nd\u{1}").rendered() == #""a\"b\\c\nd\u0001""#)
        #expect(BenchJSON.number(Double.nan).rendered() == "null")
        #expect(BenchJSON.number(1.23456789).rendered() == "1.2346")
    }
}
