import Foundation
import Testing
@testable import Kiosk
@testable import Stage

@Suite struct DisplayStatusTests {
    @Test func contentShowsOnlyWhenAvailableAndEnabled() {
        var status = DisplayStatus(connector: "Virtual-2")
        status.available = true
        #expect(status.showsContent)
        status.enabled = false
        #expect(!status.showsContent)
        status.enabled = true
        status.available = false
        #expect(!status.showsContent)
    }

    @Test func jsonCarriesModeFlipsAndTheLastFlip() throws {
        var status = DisplayStatus(connector: "HDMI-A-1")
        status.connected = true
        status.available = true
        status.mode = VideoMode(width: 1920, height: 1080, refreshMillihertz: 59_940)
        status.flips = 42
        status.missedVblanks = 1
        status.lastFlip = FlipStamp(time: 12.5, sequence: 5_000_000_000)
        let object = try #require(JSONSerialization.jsonObject(with: Data(status.json.utf8)) as? [String: Any])
        #expect(object["connector"] as? String == "HDMI-A-1")
        #expect(object["mode"] as? String == "1920x1080@59.94")
        #expect(object["flips"] as? Int == 42)
        #expect(object["missed_vblanks"] as? Int == 1)
        #expect(object["last_flip_sequence"] as? Int == 5_000_000_000)
        #expect(object["last_flip_time"] as? Double == 12.5)
    }

    @Test func statusFileIsReplacedWholeAndOnlyWhenChanged() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rig-status-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("status.json").path
        let file = DisplayStatusFile(path: path)
        var inner = DisplayStatus(connector: "Virtual-1")
        file.write([.inner: inner], extra: ["state": "running"])
        let first = try String(contentsOfFile: path, encoding: .utf8)
        #expect(first.contains("\"state\":\"running\""))
        inner.available = true
        file.write([.inner: inner], extra: ["state": "running"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect((object["inner"] as? [String: Any])?["available"] as? Bool == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["status.json"])
    }
}
