import Foundation
import Testing
@testable import Kiosk

/// A camera's identity is its name, its bus and udev's serial-based name: two cameras of
/// one model on one port differ, one camera reopened does not.
@Suite struct CameraIdentityNameTests {
    @Test func theSerialComesFromUdevsByIDLink() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-byid-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("by-id"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let node = folder.appendingPathComponent("video0").path
        #expect(FileManager.default.createFile(atPath: node, contents: nil))
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/by-id/usb-046d_BRIO_A1B2C3D4-video-index0",
                                                   withDestinationPath: node)
        let byID = folder.path + "/by-id"
        #expect(CameraDevice.identity(card: "Logitech BRIO", bus: "usb-0000:00:14.0-1", path: node, byID: byID)
            == "Logitech BRIO | usb-0000:00:14.0-1 | usb-046d_BRIO_A1B2C3D4-video-index0")
        // Named through the link itself, the same camera.
        #expect(CameraDevice.identity(card: "Logitech BRIO", bus: "usb-0000:00:14.0-1",
                                      path: byID + "/usb-046d_BRIO_A1B2C3D4-video-index0", byID: byID)
            == "Logitech BRIO | usb-0000:00:14.0-1 | usb-046d_BRIO_A1B2C3D4-video-index0")
        // No udev link (vivid, a built-in camera without a serial): name and bus.
        #expect(CameraDevice.identity(card: "vivid", bus: "platform:vivid-000", path: node, byID: folder.path + "/none")
            == "vivid | platform:vivid-000")
    }
}
