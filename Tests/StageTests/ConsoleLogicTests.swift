import Prompter
import Render
import Testing
@testable import Stage

/// The console's pixel-free pieces: the editor's buffer, focus order, the stopwatch.
struct ConsoleLogicTests {
    @Test func theEditorMovesByGraphemesAndKeepsTheColumnAcrossLines() {
        var editor = ScriptEditor(scriptID: "a.txt", title: "a", text: "Héllo 👋🏽 there\nhi\nthird line")
        editor.moveToLineEnd()
        #expect(editor.caretLine == (0, 13))
        editor.moveLeft()
        editor.moveLeft()
        editor.moveLeft()
        editor.moveLeft()
        editor.moveLeft()
        editor.moveLeft()
        editor.deleteBackward()
        // The emoji with its skin tone is one character: one Backspace removes it all.
        #expect(editor.line(0) == "Héllo  there")
        editor.moveLines(1)
        #expect(editor.caretLine == (1, 2))
        // Back to the column it came from once the line is long enough.
        editor.moveLines(1)
        #expect(editor.caretLine == (2, 6))
        editor.insert("\n")
        #expect(editor.lineStarts.count == 4)
        #expect(editor.isDirty)
        editor.markSaved()
        #expect(!editor.isDirty)
        editor.moveLines(-10)
        #expect(editor.caretLine.line == 0)
        editor.moveTo(line: 9, column: 99)
        #expect(editor.caretLine == (3, 4))
        #expect(editor.wordCount == 5)
    }

    @Test func tabOrderWrapsAndUpDownStayInTheirGroup() {
        let rect = PixelRect(x: 0, y: 0, width: 10, height: 10)
        let targets = WidgetTargets([
            WidgetTarget(id: "search", rect: rect, kind: .textField),
            WidgetTarget(id: "script:a", rect: rect, kind: .button, group: "scripts"),
            WidgetTarget(id: "script:b", rect: rect.offsetBy(dx: 0, dy: 10), kind: .button, group: "scripts"),
        ])
        #expect(targets.next(after: nil)?.id == "search")
        #expect(targets.next(after: "script:b")?.id == "search")
        #expect(targets.next(after: "search", backwards: true)?.id == "script:b")
        #expect(targets.neighbour(of: "script:a", backwards: false)?.id == "script:b")
        #expect(targets.neighbour(of: "script:b", backwards: false) == nil)
        // Overlapping targets: the one drawn last (a dialog) wins the click.
        #expect(targets.target(atX: 5, y: 5)?.id == "script:a")
        #expect(targets.target(atX: 5, y: 15)?.id == "script:b")
    }

    @Test func theStopwatchCountsPlayingTimeOnly() {
        var watch = ReadingStopwatch()
        watch.observe(.playing, at: 10)
        watch.observe(.playing, at: 12)
        watch.observe(.paused, at: 15)
        #expect(watch.elapsed(at: 100) == 5)
        watch.observe(.playing, at: 200)
        #expect(watch.elapsed(at: 201.5) == 6.5)
        watch.observe(.stopped, at: 202)
        #expect(watch.elapsed(at: 300) == 0)
        #expect(ReadingStopwatch.clock(65) == "1:05")
        #expect(ReadingStopwatch.clock(3725) == "1:02:05")
    }

    @Test func settingsStepWithinTheirRangesAndListsWrap() {
        var settings = ReadingSettings.standard
        settings.fontSize = 120
        SettingsScreen.Item.fontSize.step(&settings, by: 1)
        #expect(settings.fontSize == 120)
        settings.rotation = .threeQuarters
        SettingsScreen.Item.rotation.step(&settings, by: 1)
        #expect(settings.rotation == .none)
        settings.textColor = .white
        SettingsScreen.Item.textColor.step(&settings, by: -1)
        #expect(settings.textColor == .black)
        SettingsScreen.Item.lineSpacing.step(&settings, by: 1)
        #expect(abs(settings.lineSpacing - 1.4) < 1e-9)
    }
}
