import Foundation
import Render
import Testing
@testable import Kiosk
@testable import Stage

@Suite struct SnapshotCommandTests {
    func temporaryFolder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rig-snapshot-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// A rig.toml with small displays, so the test is quick.
    func config(in folder: String, extra: String = "") throws -> String {
        let path = folder + "/rig.toml"
        try Data("""
            [displays]
            headless_width = 480
            headless_height = 270
            [prompter]
            font_size = 20
            speed = 60
            \(extra)
            """.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func script(in folder: String) throws -> String {
        let path = folder + "/talk.txt"
        let text = Array(repeating: SceneFixtures.english, count: 8).joined(separator: "\n\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func writesBothDisplaysAtTheConfiguredSize() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let status = CLI.appliance.main(["rig", "snapshot", "--config", try config(in: folder), "--script", try script(in: folder),
                               "--at", "1.5", "--out", folder + "/out",
                               "--set", "displays.outer.mode=\"320x200\""])
        #expect(status == 0)
        #expect(try Canvas.readPNG(path: folder + "/out/outer.png").size == PixelSize(width: 320, height: 200))
        #expect(try Canvas.readPNG(path: folder + "/out/inner.png").size == PixelSize(width: 480, height: 270))
    }

    @Test func fiveSecondsAt60PixelsPerSecondMoveTheTextBy300Pixels() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rig = try config(in: folder, extra: "rotation = 90"), talk = try script(in: folder)
        // Rotated 90: the text moves along x, 300 px of a 480 px wide display.
        for (time, out) in [("2", "/a"), ("7", "/b")] {
            #expect(CLI.appliance.main(["rig", "snapshot", "--config", rig, "--script", talk, "--at", time,
                              "--out", folder + out]) == 0)
        }
        let early = try Canvas.readPNG(path: folder + "/a/outer.png")
        let late = try Canvas.readPNG(path: folder + "/b/outer.png")
        // Text turned clockwise scrolls right: late column x shows early column x - shift.
        // The marker band is a vertical strip near x = 285...320; compare columns away from it.
        func mismatches(shift: Int) -> Int {
            var count = 0
            for x in shift..<late.width where !(270...335).contains(x) && !(270...335).contains(x - shift) {
                for y in 0..<late.height where late.pixel(x: x, y: y) != early.pixel(x: x - shift, y: y) {
                    count += 1
                }
            }
            return count
        }
        let best = (280...320).min { mismatches(shift: $0) < mismatches(shift: $1) }
        #expect(best.map { abs($0 - 300) <= 1 } == true, "moved \(best ?? -1) px")
        #expect(mismatches(shift: 300) == 0)
    }

    @Test func badInputFailsWithAMessage() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rig = try config(in: folder), talk = try script(in: folder)
        #expect(CLI.appliance.main(["rig", "snapshot", "--config", rig, "--script", folder + "/missing.txt",
                          "--out", folder]) == 2)
        #expect(CLI.appliance.main(["rig", "snapshot", "--config", rig, "--script", talk, "--at", "soon",
                          "--out", folder]) == 2)
        #expect(CLI.appliance.main(["rig", "snapshot", "--config", rig, "--script", talk]) == 2)
        let binary = folder + "/binary.txt"
        try Data([0x50, 0x4b, 0x00, 0x03]).write(to: URL(fileURLWithPath: binary))
        #expect(CLI.appliance.main(["rig", "snapshot", "--config", rig, "--script", binary, "--out", folder]) == 2)
        #expect(CLI.appliance.main(["rig", "snapshot", "--config", rig, "--script", talk, "--out", folder,
                          "--set", "prompter.rotation=45"]) == 2)
    }
}
