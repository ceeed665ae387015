import Foundation
import Glibc
import Render
import Stage
import Synchronization
import Testing
@testable import Kiosk

extension RemoteEndToEnd {
    /// A phone pairs the way a host would do it at a party: the console's Settings screen
    /// shows the pairing address as a QR code; the code read back from the inner
    /// display's pixels (zbarimg, as a phone's camera would) is an address that pairs
    /// headless Chromium, which then shows the phone page. The kiosk runs in this process
    /// (its loop driven here); the browser waits on a thread of its own.
    @Suite(.serialized) struct RemotePairingQRTests {
        static var zbarimg: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg") }

        @Test(.enabled(if: HeadlessChromium.installed, "needs Debian's chromium (scripts/install-deps browser)"))
        func theQRCodeOnTheSettingsScreenPairsAPhone() throws {
            #expect(Self.zbarimg, "zbarimg is missing: scripts/install-deps installs zbar-tools")
            let rig = try ConsoleHarness(overrides: ["remote.enabled=true", "remote.port=0",
                                                     "remote.page_dir=\"\(RemoteKiosk.checkoutPage.path)\""])
            rig.click("tab:settings")
            let shown = try #require(rig.app.stage.remoteAccess?.shown)
            let address = try #require(shown.pairingAddress)
            let canvas = try rig.innerCanvas()
            try FileManager.default.createDirectory(at: RemotePageBrowserTests.artefacts, withIntermediateDirectories: true)
            let png = RemotePageBrowserTests.artefacts.appendingPathComponent("pairing-qr.png")
            try canvas.writePNG(path: png.path)
            let read = try Self.zbar(png.path)
            #expect(read == address, "the QR code reads \(read)")
            // Whole pixels per module, and enough of them to scan across a room on a
            // 1080p inner display (twice this 960x540 one).
            let qr = try #require(shown.pairingQR)
            #expect(qr.size >= 21)

            let paired = Mutex<String?>(nil)
            let url = read
            let browser = Thread {
                let outcome: String
                do {
                    let chromium = try HeadlessChromium(width: 390, height: 844)
                    try chromium.openPage(width: 390, height: 844)
                    try chromium.navigate(url)
                    try chromium.wait(until: "document.getElementById('pair') !== null", seconds: 20)
                    try chromium.press("#pair")
                    try chromium.wait(until: "document.getElementById('link')?.textContent === 'live'", seconds: 20)
                    outcome = "live"
                } catch {
                    outcome = "\(error)"
                }
                paired.withLock { $0 = outcome }
            }
            browser.start()
            rig.run(seconds: 60) { paired.withLock { $0 } != nil }
            #expect(paired.withLock { $0 } == "live")
            // The phone is listed at the rig, and the code is spent.
            #expect(rig.app.stage.remoteAccess?.shown.devices.count == 1)
            #expect(rig.app.stage.remoteAccess?.shown.pairingAddress == nil)
        }

        static func zbar(_ path: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
            process.arguments = ["--raw", "-q", path]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
