import Foundation
import Prompter
import Render
import Testing
@testable import Kiosk
@testable import Stage

/// The headless kiosk on its real loop: markers from a Markdown file, jumped to with the
/// keys and with `rig ctl` requests as the CLI parses them, the countdown cancelled by
/// Space, and the status the remote controls read.
@Suite(.serialized) struct ProfessionalPrompterEndToEndTests {
    static let news = """
        # Opening
        \(String(repeating: "Good evening and welcome to the news at ten. ", count: 20))

        # Weather
        \(String(repeating: "Rain in the north and sun in the south tomorrow. ", count: 20))

        # Sport
        \(String(repeating: "The home side won the cup final after extra time. ", count: 20))
        """

    func ctl(_ rig: ConsoleHarness, _ words: [String]) throws -> JSONValue {
        var arguments = Arguments(words)
        let request = try CtlCommand.parseRequest(&arguments, search: nil)
        return rig.app.stage.handle(request).body
    }

    func offset(_ rig: ConsoleHarness) -> Double { rig.app.stage.controller.engine.offset(at: rig.app.loop.clock()) }

    @Test func markersByKeyAndByRigCtl() throws {
        let rig = try ConsoleHarness()
        try Data(Self.news.utf8).write(to: rig.scripts.appendingPathComponent("News.md"))
        #expect(try ctl(rig, ["open", "News.md"])["ok"] == true)
        rig.run { rig.app.stage.renderer.readingText?.layout?.isComplete == true }
        let markers = try #require(rig.app.stage.handle(.status).body["prompter"]?["markers"])
        guard case let .array(items) = markers else { Issue.record("no markers array"); return }
        #expect(items.map { $0["name"]?.stringValue } == ["Opening", "Weather", "Sport"])
        let weather = try #require(items[1]["offset"]?.numberValue)
        let sport = try #require(items[2]["offset"]?.numberValue)
        // Paused at the top: N glides to Weather and stays paused.
        rig.key("N")
        rig.run { abs(offset(rig) - weather) < 0.01 }
        #expect(rig.app.stage.controller.engine.state == .paused)
        // rig ctl by name, by number, then previous.
        #expect(try ctl(rig, ["marker", "sport"])["marker"]?["name"] == "Sport")
        rig.run { abs(offset(rig) - sport) < 0.01 }
        #expect(try ctl(rig, ["marker", "1"])["ok"] == true)
        rig.run { offset(rig) < 0.01 }
        // The glide back, paused, is drawn to its end on the talent's display (its
        // frames once stopped at the first: a backward glide did not count as moving).
        #expect(rig.run { rig.app.stage.renderer.drawnOffsetRow(.outer) == 0 })
        #expect(try ctl(rig, ["marker", "next"])["marker"]?["name"] == "Weather")
        // Playing: a jump keeps playing.
        rig.key("Space")
        #expect(try ctl(rig, ["marker", "next"])["marker"]?["name"] == "Sport")
        rig.run { offset(rig) > sport + 1 }
        #expect(rig.app.stage.controller.engine.state == .playing)
        // A set marker, kept in the state folder.
        #expect(try ctl(rig, ["marker", "set"])["marker"]?["kind"] == "set")
        let saved = try String(contentsOf: rig.root.appendingPathComponent("markers.json"), encoding: .utf8)
        #expect(saved.contains("News.md"))
        #expect(try ctl(rig, ["marker", "Finance"])["ok"] == false)
    }

    @Test func theCountdownRunsAndSpaceCancelsIt() throws {
        let rig = try ConsoleHarness(overrides: ["prompter.countdown=3"])
        #expect(try ctl(rig, ["open", "Keynote.md"])["ok"] == true)
        rig.key("Space")
        #expect(rig.app.stage.handle(.status).body["prompter"]?["countdown"] == 3)
        rig.key("Space")
        #expect(rig.app.stage.controller.engine.state == .stopped)
        #expect(rig.app.stage.handle(.status).body["prompter"]?["countdown"] == .null)
        // Through rig ctl, the countdown ends and the text moves.
        #expect(try ctl(rig, ["play"])["ok"] == true)
        rig.run(seconds: 8) { offset(rig) > 0 }
        #expect(rig.app.stage.handle(.status).body["prompter"]?["countdown"] == .null)
    }

    @Test func wpmAndFinishThroughRigCtl() throws {
        let rig = try ConsoleHarness()
        #expect(try ctl(rig, ["open", "Keynote.md"])["ok"] == true)
        rig.run { rig.app.stage.renderer.readingText?.layout?.isComplete == true }
        let speed = try #require(try ctl(rig, ["wpm", "150"])["speed"]?.numberValue)
        #expect(rig.app.stage.handle(.status).body["prompter"]?["words_per_minute"]?.numberValue.map { abs($0 - 150) <= 2 } == true)
        #expect(Int(speed) == rig.app.stage.controller.engine.speed)
        #expect(try ctl(rig, ["finish", "1:00"])["ok"] == true)
        #expect(rig.app.stage.handle(.status).body["prompter"]?["finish_in"]?.numberValue.map { $0 > 59 } == true)
        #expect(try ctl(rig, ["finish", "0:01"])["ok"] == false)
        #expect(try ctl(rig, ["finish", "off"])["ok"] == true)
        #expect(rig.app.stage.handle(.status).body["prompter"]?["finish_in"] == .null)
    }
}
