import Foundation
import Render
import Testing

/// Compares a composed display with a PNG in Tests/KioskTests/Scenes/References,
/// per channel within `tolerance`. On a mismatch `<name>.actual.png` and
/// `<name>.diff.png` are written next to the expected image; with
/// RIG_UPDATE_REFERENCES=1 the expected image is rewritten instead.
enum SceneReferenceImage {
    static let folder: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("References").path
    }()

    static var updating: Bool { ProcessInfo.processInfo.environment["RIG_UPDATE_REFERENCES"] == "1" }

    static func expectMatch(_ canvas: Canvas, named name: String, tolerance: Int = 3,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expectedPath = "\(folder)/\(name).png"
        let actualPath = "\(folder)/\(name).actual.png"
        let diffPath = "\(folder)/\(name).diff.png"
        guard !updating, FileManager.default.fileExists(atPath: expectedPath) else {
            try canvas.writePNG(path: expectedPath)
            if !updating {
                Issue.record("no reference \(name).png yet: wrote it; look at it and commit it",
                             sourceLocation: sourceLocation)
            }
            return
        }
        let expected = try Canvas.readPNG(path: expectedPath)
        guard expected.size == canvas.size else {
            try canvas.writePNG(path: actualPath)
            Issue.record("\(name): \(canvas.size) but the reference is \(expected.size); see \(actualPath)",
                         sourceLocation: sourceLocation)
            return
        }
        let diff = try Canvas(size: canvas.size)
        var failing = 0, worst = 0
        for index in 0..<canvas.pixels.count {
            let a = canvas.pixels[index], b = expected.pixels[index]
            var delta = 0
            for shift: UInt32 in [0, 8, 16] {
                delta = max(delta, abs(Int((a >> shift) & 0xff) - Int((b >> shift) & 0xff)))
            }
            worst = max(worst, delta)
            if delta > tolerance {
                failing += 1
                diff.pixels[index] = 0xffff_0000
            } else {
                // A dim copy of the expected image gives the red marks their context.
                let grey = ((b & 0xff) + ((b >> 8) & 0xff) + ((b >> 16) & 0xff)) / 12
                diff.pixels[index] = 0xff00_0000 | grey << 16 | grey << 8 | grey
            }
        }
        if failing > 0 {
            try canvas.writePNG(path: actualPath)
            try diff.writePNG(path: diffPath)
            Issue.record("\(name): \(failing) pixels differ by more than \(tolerance) (worst \(worst)); see \(actualPath) and \(diffPath)",
                         sourceLocation: sourceLocation)
        } else {
            try? FileManager.default.removeItem(atPath: actualPath)
            try? FileManager.default.removeItem(atPath: diffPath)
        }
    }
}
