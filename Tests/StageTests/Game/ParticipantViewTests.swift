import Foundation
import Game
import Render
import Testing
@testable import Stage

/// The outer display in the game: the mirrored camera preview with the participant's
/// status and cue upright over it, and nothing of the host's pick before Send.
@Suite struct ParticipantViewTests {
    static let red: UInt32 = 0x00ff_0000
    static let blue: UInt32 = 0x0000_00ff

    /// A camera frame whose left half is red and right half blue, as the camera sees it.
    static func splitFrame(sequence: UInt32) -> CameraFrame {
        let width = 160, height = 90
        let pool = CameraFramePool()
        let memory = pool.take(bytes: width * height * 4)
        let pixels = memory.start.bindMemory(to: UInt32.self, capacity: width * height)
        for y in 0..<height {
            for x in 0..<width { pixels[y * width + x] = x < width / 2 ? red : blue }
        }
        return CameraFrame(format: .xrgb, width: width, height: height, bytesPerLine: width * 4, sequence: sequence,
                           timestamp: 0, memory: memory, pool: pool)
    }

    private func visualGameWithCamera() throws -> GameRig {
        let rig = try GameRig(camera: true, fonts: try FontLibrary())
        rig.stage.handle(.camera(CameraInput(frame: nil, message: nil, state: "streaming", live: true)))
        rig.stage.handle(.cameraFrame(Self.splitFrame(sequence: 1)))
        #expect(rig.ctl("setup", ["players": "Ann,Bo", "mode": "visual", "cue": "1.5", "response": "3",
                                  "recording": "off"]).ok)
        rig.run(for: 0.1)
        return rig
    }

    /// The outer frame's pixels now, copied while its canvas lives.
    private func outerPixels(_ rig: GameRig) throws -> [UInt32] {
        let canvas = try rig.replay.canvas(.outer, at: rig.now)
        return withExtendedLifetime(canvas) { Array(canvas.pixels) }
    }

    /// Within 8 per channel (the preview is scaled bilinearly).
    static func near(_ a: UInt32, _ b: UInt32) -> Bool {
        [0, 8, 16].allSatisfy { shift in abs(Int((a >> UInt32(shift)) & 0xff) - Int((b >> UInt32(shift)) & 0xff)) <= 8 }
    }

    private func pixel(_ canvas: Canvas, _ x: Int, _ y: Int) -> UInt32 { canvas.pixels[y * canvas.width + x] & 0x00ff_ffff }

    @Test func outerFramesBeforeSendAreTheSameWhateverTheHostPicked() throws {
        let rig = try visualGameWithCamera()
        let nothing = try outerPixels(rig)
        var frames: [[UInt32]] = []
        for (card, rule) in [("poses.star", "simon"), ("poses.statue", "not"), ("poses.arms-up", "draw")] {
            #expect(rig.ctl("select", ["card": card, "rule": rule]).ok)
            rig.run(for: 0.05)
            frames.append(try outerPixels(rig))
        }
        #expect(frames.count == 3 && frames.allSatisfy { $0 == nothing })
        // The same frame says "Waiting for the host"; after Send it changes.
        #expect(rig.ctl("send").ok)
        rig.run(for: 0.05)
        #expect(try outerPixels(rig) != nothing)
    }

    @Test func theCueIsUprightOverTheMirroredPreview() throws {
        let rig = try visualGameWithCamera()
        #expect(rig.ctl("select", ["card": "poses.star", "rule": "not"]).ok)
        #expect(rig.ctl("send").ok)
        rig.run(for: 1.6)
        #expect(rig.phase == "response")
        let canvas = try rig.replay.canvas(.outer, at: rig.now)
        // Mirrored: the camera's right (blue) is on the display's left.
        #expect(Self.near(pixel(canvas, 5, 90), Self.blue))
        #expect(Self.near(pixel(canvas, 314, 90), Self.red))
        // The Z's diagonal runs from upper right to lower left when it is upright.
        let side = 72, left = (320 - side) / 2, top = (180 - side) / 2
        var rows: [(y: Int, meanX: Double)] = []
        for y in top..<(top + side) {
            let ink = (left..<(left + side)).filter { x in
                let p = pixel(canvas, x, y)
                return (p >> 16) & 0xff < 0x60 && (p >> 8) & 0xff < 0x60
            }
            if !ink.isEmpty { rows.append((y, Double(ink.reduce(0, +)) / Double(ink.count))) }
        }
        let glyph = try #require(rows.first?.y).distance(to: try #require(rows.last?.y))
        #expect(glyph > 20)
        let upper = try #require(rows.first { $0.y >= rows[0].y + glyph * 3 / 10 })
        let lower = try #require(rows.first { $0.y >= rows[0].y + glyph * 7 / 10 })
        #expect(upper.meanX > lower.meanX + 5)
    }
}
