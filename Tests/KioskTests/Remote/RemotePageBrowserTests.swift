import Foundation
import Stage
import Testing
@testable import Kiosk


extension RemoteEndToEnd {
    /// The phone page in a real browser (Debian's headless Chromium at a phone's size):
    /// it pairs through the pairing address and its button, shows the live state, and a press on Play and
    /// on Faster changes the kiosk. The screenshot is kept in out/remote/.
    @Suite(.serialized) struct RemotePageBrowserTests {
        static var artefacts: URL {
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../out/remote")
                .standardizedFileURL
        }

        @Test(.enabled(if: HeadlessChromium.installed, "needs Debian's chromium (scripts/install-deps browser)"))
        func thePhonePagePairsAndDrivesTheKiosk() throws {
            let kiosk = try RemoteKiosk()
            let browser = try HeadlessChromium(width: 390, height: 844)
            try browser.openPage(width: 390, height: 844)
            // Unpaired, the page is refused.
            try browser.navigate("http://127.0.0.1:\(kiosk.httpPort)/")
            try browser.wait(until: "document.readyState === 'complete' && document.body.innerText.includes('Not paired')")
            // The pairing address the rig shows: a form, and the phone is paired by its button.
            let pairing = kiosk.control(.remote(action: "pair", id: nil))?["pair"]?.stringValue ?? ""
            try browser.navigate(pairing)
            try browser.wait(until: "document.getElementById('pair') !== null")
            try browser.press("#pair")
            try browser.wait(until: "document.getElementById('link')?.textContent === 'live'")
            try browser.wait(until: "document.querySelectorAll('#scripts li').length === 2")
            try browser.press("#scripts li[data-id=\"long.md\"]")
            try waitFor { kiosk.prompter?["script"]?.stringValue == "long.md" }
            try browser.press("#play")
            try waitFor { kiosk.prompter?["state"]?.stringValue == "playing" }
            try browser.press("#faster")
            try waitFor { (kiosk.prompter?["speed"]?.numberValue ?? 0) > 100 }
            // The page hears it back through the event stream.
            let speed = Int(kiosk.prompter?["speed"]?.numberValue ?? 0)
            try browser.wait(until: "document.getElementById('state').textContent === 'playing' && document.getElementById('speed').textContent === '\(speed)'")
            try browser.wait(until: "parseFloat(document.getElementById('progress').style.width) > 0")
            try FileManager.default.createDirectory(at: Self.artefacts, withIntermediateDirectories: true)
            let shot = try browser.screenshot()
            try shot.write(to: Self.artefacts.appendingPathComponent("phone.png"))
            #expect(shot.count > 10_000)
            // A phone's size: 390x844 CSS pixels at twice the density.
            let width = shot[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = shot[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == 780 && height == 1688)
        }

        private func waitFor(seconds: Double = 5, _ condition: () -> Bool) throws {
            let deadline = Date() + seconds
            while Date() < deadline {
                if condition() { return }
                usleep(20_000)
            }
            throw HeadlessChromium.Failure.timeout("the kiosk's state")
        }
    }
}
