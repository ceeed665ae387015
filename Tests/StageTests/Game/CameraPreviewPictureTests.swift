import Foundation
import Render
import Testing
@testable import Stage

/// The outer preview converted off the loop (the kiosk's preview thread) is placed as
/// it is: the outer frame converts nothing itself unless no fitting picture came.
@Suite struct CameraPreviewPictureTests {
    static let green: UInt32 = 0x0000_ff00

    private func picture(size: PixelSize, sequence: UInt32, mirrored: Bool = true,
                         pool: CameraPreviewPool) throws -> CameraPreviewPicture {
        let canvas = try pool.take(size: size)
        for index in canvas.pixels.indices { canvas.pixels[index] = 0xff00_0000 | Self.green }
        return CameraPreviewPicture(canvas: canvas, sequence: sequence, mirrored: mirrored, pool: pool)
    }

    @Test func aFittingPictureIsPlacedAsItIsAndAnotherSizeIsConvertedHere() throws {
        let rig = try GameRig(camera: true, fonts: try FontLibrary())
        rig.stage.handle(.camera(CameraInput(frame: nil, message: nil, state: "streaming", live: true)))
        #expect(rig.ctl("setup", ["players": "Ann,Bo", "mode": "visual", "recording": "off"]).ok)
        rig.stage.handle(.cameraFrame(ParticipantViewTests.splitFrame(sequence: 1)))
        rig.run(for: 0.05)
        // No picture came with the first frame: the outer frame converted it.
        #expect(rig.stage.renderer.previewsConvertedHere == 1)
        let target = try #require(rig.stage.outerPreviewTarget)
        #expect(target == PreviewTarget(size: rig.replay.outerSize, mirrored: true))

        let pool = CameraPreviewPool()
        rig.stage.handle(.cameraPreview(ParticipantViewTests.splitFrame(sequence: 2),
                                        try picture(size: target.size, sequence: 2, pool: pool)))
        rig.run(for: 0.05)
        #expect(rig.stage.renderer.previewsConvertedHere == 1)
        #expect(rig.outer.pixels[90 * rig.outer.width + 5] & 0x00ff_ffff == Self.green)

        // A picture of another size (the outer display changed mode meanwhile) is not used.
        rig.stage.handle(.cameraPreview(ParticipantViewTests.splitFrame(sequence: 3),
                                        try picture(size: PixelSize(width: 64, height: 36), sequence: 3, pool: pool)))
        rig.run(for: 0.05)
        #expect(rig.stage.renderer.previewsConvertedHere == 2)
        #expect(ParticipantViewTests.near(rig.outer.pixels[90 * rig.outer.width + 5] & 0x00ff_ffff,
                                          ParticipantViewTests.blue))
    }

    @Test func aPictureGoesBackToItsPoolWhenNoLongerHeld() throws {
        let pool = CameraPreviewPool()
        var held: CameraPreviewPicture? = try picture(size: PixelSize(width: 32, height: 18), sequence: 1, pool: pool)
        #expect(pool.freeCount == 0)
        #expect(held?.fits(sequence: 1, size: PixelSize(width: 32, height: 18), mirrored: true) == true)
        #expect(held?.fits(sequence: 1, size: PixelSize(width: 32, height: 18), mirrored: false) == false)
        held = nil
        #expect(pool.freeCount == 1)
        // Reused for the same size.
        _ = try pool.take(size: PixelSize(width: 32, height: 18))
        #expect(pool.freeCount == 0)
    }
}
