import Foundation
import Prompter
import Render
import Testing
@testable import Stage

/// Markers, countdown, timers, end of script, words per minute and "finish in", through
/// the stage's control requests (what `rig ctl` and a remote send) on a manual clock.
@Suite struct ProfessionalPrompterTests {
    static let paragraph = String(repeating: "Words to read at a steady pace. ", count: 12)
    static let markdown = """
        # Opening
        \(paragraph)

        # Weather
        \(paragraph)

        # Sport
        \(paragraph)
        """

    private func stage(_ text: String = markdown, settings change: (inout ReadingSettings) -> Void = { _ in })
        throws -> ManualClockStage {
        var settings = RigStage.Settings(outerSize: PixelSize(width: 640, height: 360))
        change(&settings.readingDefaults)
        let replay = ManualClockStage(settings: settings, innerSize: PixelSize(width: 640, height: 360),
                                 fonts: try FontLibrary())
        let (reading, markers, markup) = ScriptLibrary.readingTextAndMarkers(text, format: .markdown, lineBreaks: .auto)
        replay.controller.openText(.init(id: "news.md", title: "News", text: reading,
                                         wordCount: ReadingTime.wordCount(reading, markup: markup), repaired: false,
                                         markers: markers, markup: markup),
                                   at: replay.clock.now)
        replay.finishLayout()
        return replay
    }

    private func request(_ replay: ManualClockStage, _ json: String) -> JSONValue {
        switch ControlRequest.parse(Data(json.utf8)) {
        case let .success(request): return replay.stage.handle(request).body
        case let .failure(invalid): return ["ok": false, "error": .string(invalid.description)]
        }
    }

    private func status(_ replay: ManualClockStage) -> JSONValue {
        replay.stage.status(at: replay.clock.now)
    }

    /// `prompter.word`: the script word on the reading line, the one a saved position keeps.
    @Test func theStatusSaysWhichWordIsOnTheReadingLine() throws {
        let replay = try stage()
        #expect(status(replay)["prompter"]?["word"] == 0)
        // The second marker, "# Weather", starts after the first heading and paragraph:
        // 1 + 12 * 7 words.
        #expect(request(replay, #"{"cmd":"marker","action":"jump","to":"2"}"#)["ok"] == true)
        replay.advance(to: replay.clock.now + 3)
        #expect(status(replay)["prompter"]?["word"] == .int(1 + 12 * 7))
        let word = try #require(status(replay)["prompter"]?["word"]?.numberValue)
        #expect(replay.stage.renderer.wordIndex(atOffset: replay.controller.engine.offset(at: replay.clock.now)) == Int(word))
    }

    /// `prompter.anchor`: the same place in the text for another rig's fonts and margins.
    /// A second stage with a larger font, wider margins and the text mirrored (a
    /// follower's glass) put at the lead's anchor shows the lead's word on its reading
    /// line, as far through its line; the hash is the text's, the speed in lines a second
    /// the lead's rate over its line height, the time the stage's wall clock.
    @Test func theAnchorPutsTheSameWordOnAnotherRigsReadingLine() throws {
        let lead = try stage()
        lead.stage.wallClock = { Date(timeIntervalSince1970: 1_800_000_000.25) }
        let follower = try stage { settings in
            settings.fontSize += 30
            settings.margin = 20
            settings.mirror = true
        }
        #expect(request(lead, #"{"cmd":"play"}"#)["ok"] == true)
        let leadLayout = try #require(lead.stage.renderer.readingText?.layout)
        let followerLayout = try #require(follower.stage.renderer.readingText?.layout)
        #expect(followerLayout.lineHeight > leadLayout.lineHeight * 1.2)
        var checked = 0
        for second in stride(from: 2.0, through: 30, by: 4) {
            lead.advance(to: second)
            let anchor = try #require(status(lead)["prompter"]?["anchor"])
            let word = try #require(anchor["word"]?.numberValue.map(Int.init))
            #expect(.int(word) == status(lead)["prompter"]?["word"])
            let fraction = try #require(anchor["line_fraction"]?.numberValue)
            let offset = lead.controller.engine.offset(at: lead.clock.now)
            // Back on the lead's own layout: the offset it was taken at.
            let own = ReadingAnchor(word: word, lineFraction: fraction).offset(in: leadLayout)
            #expect(abs(own - offset) < 0.01 * leadLayout.lineHeight)
            // On the follower's: the line at its reading line holds the word, as far through.
            let placed = ReadingAnchor(word: word, lineFraction: fraction).offset(in: followerLayout)
            let line = followerLayout.lineIndex(atY: placed)
            let first = followerLayout.wordIndex(atY: placed)
            let next = followerLayout.wordIndex(atY: followerLayout.y(ofLine: line + 1))
            #expect(first <= word && (word < next || next == first), "word \(word) on the follower's line \(first)..<\(next)")
            #expect(abs((placed - followerLayout.y(ofLine: line)) / followerLayout.lineHeight - fraction) < 0.001)
            let rate = lead.controller.engine.currentRate(at: lead.clock.now)
            #expect(abs((anchor["lines_per_second"]?.numberValue ?? 0) - rate / leadLayout.lineHeight) < 0.001)
            #expect(anchor["wall_time"] == .number(1_800_000_000.25))
            #expect(anchor["script_hash"] == .string(SHA256.hex(try #require(lead.controller.script?.text))))
            checked += 1
        }
        #expect(checked == 8)
        // The follower shows the same text, so its hash is the lead's; another text's differs.
        #expect(status(follower)["prompter"]?["anchor"]?["script_hash"] == status(lead)["prompter"]?["anchor"]?["script_hash"])
        let other = try stage(Self.markdown + "\nOne more line.")
        #expect(status(other)["prompter"]?["anchor"]?["script_hash"] != status(lead)["prompter"]?["anchor"]?["script_hash"])
    }

    /// A bound key's action is a request of its own (`rig ctl key`, the remote): the same
    /// as the key pressed, refused with the list of actions when unknown.
    @Test func aKeyActionIsARequest() throws {
        let replay = try stage()
        #expect(request(replay, #"{"cmd":"key","action":"mirror"}"#)["ok"] == true)
        #expect(replay.controller.settings.mirror)
        #expect(request(replay, #"{"cmd":"key","action":"next_marker"}"#)["ok"] == true)
        replay.advance(to: 1)
        #expect(status(replay)["prompter"]?["offset"]?.numberValue ?? 0 > 0, "the glide to the next marker moved the text")
        let refused = request(replay, #"{"cmd":"key","action":"mirrror"}"#)
        #expect(refused["ok"] == false && refused["error"]?.stringValue?.contains("play_pause") == true, "\(refused)")
        #expect(ControlRequest.key(.record).json == ["cmd": "key", "action": "record"])
    }

    @Test func markersAreListedWithTheirPlacesAndReadingTimes() throws {
        let replay = try stage()
        let markers = try #require(status(replay)["prompter"]?["markers"]?.arrayValue)
        #expect(markers.map { $0["name"]?.stringValue } == ["Opening", "Weather", "Sport"])
        let offsets = markers.compactMap { $0["offset"]?.numberValue }
        #expect(offsets[0] == 0 && offsets[0] < offsets[1] && offsets[1] < offsets[2])
        // Reading time to a marker is its distance at the current speed (60 px/s).
        #expect(abs((markers[1]["time"]?.numberValue ?? 0) - offsets[1] / 60) < 0.1)
        // Each marker's place is the top of its heading's line in the outer layout.
        let layout = try #require(replay.stage.renderer.readingText?.layout)
        let weatherLine = layout.lineIndex(atY: offsets[1])
        let glyphs = layout.line(at: weatherLine)?.textRange
        let text = Array(replay.controller.script?.text.unicodeScalars ?? "".unicodeScalars)
        let lineText = String(String.UnicodeScalarView(text[glyphs ?? 0..<0]))
        #expect(lineText == "Weather")
    }

    @Test func nextAndPreviousGlideKeepingPlayAndPause() throws {
        let replay = try stage()
        let marks = replay.controller.markers
        replay.controller.play(at: 0)
        replay.advance(to: 1)
        #expect(request(replay, #"{"cmd":"marker","to":"next"}"#)["ok"] == true)
        // A glide, not a blink: the offset moves over 0.3 s.
        let start = replay.controller.engine.offset(at: 1)
        #expect(start < 60)
        #expect(replay.controller.engine.offset(at: 1.15) > start)
        #expect(replay.controller.engine.offset(at: 1.15) < marks[1].offset)
        #expect(abs(replay.controller.engine.offset(at: 1.3) - (marks[1].offset + 60 * 0.3)) < 0.5)
        #expect(replay.controller.engine.state == .playing)
        // Two quick presses go two markers on.
        replay.advance(to: 1.1)
        _ = request(replay, #"{"cmd":"marker","to":"next"}"#)
        replay.advance(to: 1.2)
        #expect(request(replay, #"{"cmd":"marker","to":"next"}"#)["ok"] == false)
        #expect(abs(replay.controller.engine.offset(at: 1.6) - (marks[2].offset + 60 * 0.5)) < 1)
        // Paused, a jump back stays paused.
        replay.advance(to: 2)
        replay.controller.pause(at: 2)
        replay.advance(to: 3)
        #expect(request(replay, #"{"cmd":"marker","to":"prev"}"#)["marker"]?["name"] == "Weather")
        #expect(replay.controller.engine.state == .paused)
        #expect(abs(replay.controller.engine.offset(at: 4) - marks[1].offset) < 0.01)
        // By number, by name (case and prefix), and the start.
        _ = request(replay, #"{"cmd":"marker","to":"3"}"#)
        #expect(abs(replay.controller.engine.offset(at: 5) - marks[2].offset) < 0.01)
        _ = request(replay, #"{"cmd":"marker","to":"wea"}"#)
        #expect(abs(replay.controller.engine.offset(at: 6) - marks[1].offset) < 0.01)
        _ = request(replay, #"{"cmd":"marker","to":"start"}"#)
        #expect(replay.controller.engine.offset(at: 7) == 0)
        #expect(request(replay, #"{"cmd":"marker","to":"9"}"#)["error"] == "there is no marker 9; the script has 3")
        #expect(request(replay, #"{"cmd":"marker","to":"Finance"}"#)["error"] == #"no marker is named "Finance""#)
    }

    @Test func anOperatorMarkerIsSetAtTheReadingLineAndJumpedTo() throws {
        let replay = try stage()
        replay.controller.play(at: 0)
        replay.advance(to: 4)
        let set = request(replay, #"{"cmd":"marker","action":"set"}"#)
        #expect(set["ok"] == true)
        #expect(set["marker"]?["kind"] == "set")
        let markers = try #require(status(replay)["prompter"]?["markers"]?.arrayValue)
        #expect(markers.count == 4)
        #expect(markers[1]["kind"] == "set")
        let placed = try #require(markers[1]["offset"]?.numberValue)
        // At the line under the reading line when it was set.
        let layout = try #require(replay.stage.renderer.readingText?.layout)
        #expect(placed <= replay.controller.engine.offset(at: 4) && placed > replay.controller.engine.offset(at: 4) - layout.lineHeight)
        _ = request(replay, #"{"cmd":"marker","to":"start"}"#)
        replay.advance(to: 5)
        _ = request(replay, #"{"cmd":"marker","to":"next"}"#)
        #expect(abs(replay.controller.engine.positionIgnoringGlide(at: 5) - placed) < 0.01)
        #expect(request(replay, #"{"cmd":"marker","action":"clear"}"#)["markers"]?.arrayValue?.count == 3)
    }

    @Test func theCountdownHoldsThenRunsAndSpaceCancelsIt() throws {
        let replay = try stage { $0.countdown = 3 }
        #expect(request(replay, #"{"cmd":"play"}"#)["ok"] == true)
        #expect(status(replay)["prompter"]?["countdown"] == 3)
        replay.advance(to: 1.5)
        #expect(status(replay)["prompter"]?["countdown"] == 2)
        #expect(replay.controller.engine.offset(at: 1.5) == 0)
        replay.advance(to: 4)
        #expect(status(replay)["prompter"]?["countdown"] == .null)
        #expect(replay.controller.engine.offset(at: 4) > 0)
        // Elapsed counts reading, not the countdown.
        #expect(abs((status(replay)["prompter"]?["elapsed"]?.numberValue ?? 0) - 1) < 0.11)
        replay.controller.stop(at: 4)
        replay.controller.play(at: 4)
        replay.advance(to: 5)
        replay.stage.handle(.key(KeyPress(code: 57, action: .playPause, symbol: .space, text: " ", time: 5)))
        #expect(replay.controller.engine.state == .stopped)
        #expect(replay.controller.engine.offset(at: 9) == 0)
    }

    @Test func loopGoesRoundAndBlankBlanksAtTheEnd() throws {
        let short = "# One\nA few words.\n# Two\nA few more."
        let looping = try stage(short) { $0.endOfScript = .loop; $0.speed = 300 }
        looping.controller.play(at: 0)
        let end = try #require(looping.controller.engine.endTime())
        looping.advance(to: end + 1)
        #expect(looping.controller.engine.loops >= 1)
        #expect(looping.controller.engine.state == .playing)
        #expect(status(looping)["prompter"]?["loops"]?.numberValue ?? 0 >= 1)
        let blanking = try stage(short) { $0.endOfScript = .blank; $0.speed = 300 }
        blanking.controller.play(at: 0)
        let blankEnd = try #require(blanking.controller.engine.endTime())
        blanking.advance(to: blankEnd + 0.1)
        #expect(blanking.controller.blanked)
        #expect(blanking.controller.engine.isEnded(at: blanking.clock.now))
    }

    /// Directions take room on the glass but are not read: words per minute count the
    /// words said over the whole text's height.
    @Test func wordsPerMinuteLeaveDirectionsOut() throws {
        let spoken = String(repeating: "Good evening and welcome to the news. ", count: 40)
        let plain = try stage(spoken)
        let directed = try stage(spoken + String(repeating: "[LOOK AT CAMERA TWO] ", count: 40))
        #expect(directed.controller.script?.wordCount == plain.controller.script?.wordCount)
        let plainHeight = try #require(plain.stage.renderer.readingText?.layout?.totalHeight)
        let directedHeight = try #require(directed.stage.renderer.readingText?.layout?.totalHeight)
        #expect(directedHeight > plainHeight * 1.3)
        let plainWPM = try #require(plain.controller.markerLayout?.wordsPerMinute(atSpeed: 60))
        let directedWPM = try #require(directed.controller.markerLayout?.wordsPerMinute(atSpeed: 60))
        // The same words over more pixels: fewer words a minute at the same speed.
        #expect(abs(Double(directedWPM) - Double(plainWPM) * plainHeight / directedHeight) <= 2)
    }

    @Test func wordsPerMinuteUseTheLayoutAtAnyFontSize() throws {
        let replay = try stage()
        let layout = try #require(replay.stage.renderer.readingText?.layout)
        let words = Double(try #require(replay.controller.script?.wordCount))
        let reply = request(replay, #"{"cmd":"wpm","value":150}"#)
        let speed = try #require(reply["speed"]?.numberValue)
        // 150 words a minute over the measured layout: words/height px per word.
        #expect(abs(speed - 150.0 / 60 * layout.totalHeight / words) <= 0.5)
        #expect(replay.controller.markerLayout?.wordsPerMinute(atSpeed: Int(speed)).map { abs($0 - 150) <= 2 } == true)
        // Larger text: fewer words per line, so more px/s for the same words per minute.
        replay.controller.updateSettings { $0.fontSize = 96 }
        replay.finishLayout()
        let larger = try #require(request(replay, #"{"cmd":"wpm","value":150}"#)["speed"]?.numberValue)
        #expect(larger > speed * 1.2)
        #expect(request(replay, #"{"cmd":"wpm","value":5000}"#)["ok"] == false)
    }

    @Test func finishInFitsTheSpeedRefitsAfterAPauseAndRefusesTheImpossible() throws {
        let replay = try stage()
        let total = replay.controller.engine.maxOffset
        replay.controller.play(at: 0)
        replay.advance(to: 1)
        let reply = request(replay, #"{"cmd":"finish","in":"1:00"}"#)
        #expect(reply["ok"] == true, Comment(rawValue: "\(reply)"))
        let speed = try #require(reply["speed"]?.numberValue)
        let left = total - replay.controller.engine.offset(at: 1)
        #expect(abs(speed - left / 60) <= 1)
        // It ends on time, give or take what a whole px/s can do: half a px/s over the
        // minute is 30 px.
        let end = try #require(replay.controller.engine.endTime())
        #expect(abs(end - 61) <= 30 / speed + 0.01)
        // A pause costs time; on resume the speed is fitted again to the same end.
        replay.advance(to: 5)
        replay.controller.pause(at: 5)
        replay.advance(to: 8)
        replay.controller.play(at: 8)
        let refitted = try #require(replay.controller.engine.endTime())
        let newSpeed = Double(replay.controller.engine.speed)
        #expect(abs(refitted - 61) <= 0.5 * (61 - 8) / newSpeed + 0.01)
        #expect(newSpeed > speed)
        let refused = request(replay, #"{"cmd":"finish","in":"0:01"}"#)
        #expect(refused["ok"] == false)
        #expect(refused["error"]?.stringValue?.contains("px/s; the prompter scrolls at 10-300 px/s") == true)
        #expect(request(replay, #"{"cmd":"finish","in":"soon"}"#)["ok"] == false)
    }

    @Test func aTargetThatCanNoLongerBeMetSaysSoAndASpeedKeyDropsItWithItsProblem() throws {
        let replay = try stage()
        replay.controller.play(at: 0)
        replay.advance(to: 1)
        #expect(request(replay, #"{"cmd":"finish","in":"1:00"}"#)["ok"] == true)
        // Paused until two seconds are left: the rest cannot be read in them.
        replay.controller.pause(at: 2)
        replay.advance(to: 59)
        replay.controller.play(at: 59)
        let timers = replay.stage.timers(at: 59)
        #expect(timers.targetLeft == 2)
        #expect(timers.targetProblem?.contains("px/s; the prompter scrolls at 10-300 px/s") == true)
        replay.controller.faster(at: 60)
        #expect(replay.controller.finishTarget == nil)
        let after = replay.stage.timers(at: 60)
        #expect(after.targetLeft == nil && after.targetProblem == nil)
    }

    @Test func theSettingsScreenStepsCountdownEndOfScriptAndTheOuterTimer() throws {
        let replay = try stage()
        let console = replay.stage.console
        console.step(.endOfScript, by: 1)
        #expect(replay.controller.settings.endOfScript == .loop)
        #expect(replay.controller.engine.endBehavior == .loop)
        console.step(.endOfScript, by: 1)
        #expect(replay.controller.settings.endOfScript == .blank)
        console.step(.countdown, by: 1)
        console.step(.countdown, by: 1)
        #expect(replay.controller.engine.countdownSeconds == 2)
        #expect(SettingsScreen.Item.countdown.value(replay.controller.settings) == "2 s")
        console.step(.outerTimer, by: 1)
        #expect(replay.controller.settings.outerTimer)
        #expect(status(replay)["prompter"]?["end_of_script"] == "blank")
    }
}
