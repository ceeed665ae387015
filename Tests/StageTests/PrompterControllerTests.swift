import Foundation
import Prompter
import Testing
@testable import Stage

@Suite struct PrompterControllerTests {
    private func makeController(_ files: [String: String] = ["Intro.txt": "one two three four"]) throws -> (PrompterController, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-app-\(UUID())")
        let scripts = root.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: scripts.appendingPathComponent(name)) }
        let library = try ScriptLibrary(root: scripts)
        let controller = PrompterController(library: library, stateDirectory: root, defaults: .standard, wordsPerMinute: 150)
        return (controller, root)
    }

    @Test func openingAScriptStopsAtTheTop() throws {
        let (controller, _) = try makeController()
        try controller.open(id: "Intro.txt", at: 10)
        #expect(controller.script?.title == "Intro")
        #expect(controller.script?.wordCount == 4)
        #expect(controller.engine.state == .stopped)
        #expect(controller.engine.offset(at: 20) == 0)
    }

    /// A renamed or moved open script keeps its marks on the prompter: emphasis,
    /// directions and highlights are the text's, not the file name's.
    @Test func renamingTheOpenScriptKeepsItsMarks() throws {
        let (controller, _) = try makeController(["Talk.md": "Say **this** loudly. [PAUSE] Then go on."])
        try controller.open(id: "Talk.md", at: 0)
        let marked = try #require(controller.script)
        #expect(marked.markup != .none)
        let entry = try #require(controller.library).rename(id: "Talk.md", to: "Keynote")
        controller.scriptMoved(from: "Talk.md", to: entry)
        #expect(controller.script?.id == "Keynote.md")
        #expect(controller.script?.markup == marked.markup)
        #expect(controller.script?.text == marked.text)
    }

    @Test func aTapPausesWhereTheTextWasWhenTheFingerCameDown() throws {
        let (controller, _) = try makeController()
        try controller.open(id: "Intro.txt", at: 0)
        controller.play(at: 0)
        let atTap = controller.engine.offset(at: 5)
        // The event is read 40 ms after the finger touched the glass.
        controller.tap(at: 5)
        #expect(controller.engine.state == .paused)
        #expect(controller.pausedByTap)
        #expect(abs(controller.engine.offset(at: 6) - atTap) < 0.001)
        #expect(controller.taps == 1)
        controller.tap(at: 7)
        #expect(controller.engine.state == .playing)
        #expect(!controller.pausedByTap)
    }

    @Test func tapsOutsidePrompterModeDoNothing() throws {
        let (controller, _) = try makeController()
        try controller.open(id: "Intro.txt", at: 0)
        controller.play(at: 0)
        controller.setMode(.framing)
        controller.tap(at: 1)
        #expect(controller.engine.state == .playing)
        #expect(controller.taps == 0)
    }

    @Test func keysDriveTransportSpeedAndTransforms() throws {
        let (controller, root) = try makeController()
        try controller.open(id: "Intro.txt", at: 0)
        controller.perform(.playPause, at: 0)
        #expect(controller.engine.state == .playing)
        controller.perform(.faster, at: 1)
        #expect(controller.engine.speed == 70)
        controller.perform(.slower, at: 2)
        controller.perform(.slower, at: 2)
        #expect(controller.engine.speed == 50)
        controller.perform(.mirror, at: 3)
        controller.perform(.rotate, at: 3)
        controller.perform(.fontLarger, at: 3)
        #expect(controller.settings.mirror)
        #expect(controller.settings.rotation == .quarter)
        #expect(controller.settings.fontSize == 68)
        controller.perform(.blank, at: 4)
        #expect(controller.blanked)
        controller.perform(.stop, at: 5)
        #expect(controller.engine.state == .stopped)
        #expect(controller.engine.offset(at: 6) == 0)
        // Saved at once, so a restart reads them back.
        let reopened = PrompterController(library: nil, stateDirectory: root, defaults: .standard, wordsPerMinute: 150)
        #expect(reopened.settings.mirror)
        #expect(reopened.settings.fontSize == 68)
        #expect(reopened.settings.speed == 50)
    }

    @Test func layoutChangesFollowOnlyTheSettingsThatMoveText() throws {
        let (controller, _) = try makeController()
        var layouts = 0
        controller.onLayoutChange = { layouts += 1 }
        controller.updateSettings { $0.mirror = true }
        controller.updateSettings { $0.textColor = .yellow }
        controller.updateSettings { $0.rotation = .half }
        #expect(layouts == 0)
        controller.updateSettings { $0.rotation = .quarter }
        controller.updateSettings { $0.fontSize = 100 }
        controller.updateSettings { $0.margin = 20 }
        #expect(layouts == 3)
    }

    @Test func resumeStateIsSavedAndFound() throws {
        let (controller, root) = try makeController()
        try controller.open(id: "Intro.txt", at: 0)
        controller.layoutChanged(at: 0, maxOffset: 10_000) { $0 }
        controller.play(at: 0)
        controller.resume?.save(ResumeState(scriptID: "Intro.txt", offset: controller.engine.offset(at: 10), wordIndex: 2))
        controller.resume?.flush()
        let restarted = PrompterController(library: controller.library, stateDirectory: root, defaults: .standard, wordsPerMinute: 150)
        try restarted.open(id: "Intro.txt", at: 100)
        let point = restarted.resume?.point(for: restarted.script)
        #expect(point?.wordIndex == 2)
        #expect(abs((point?.offset ?? 0) - controller.engine.offset(at: 10)) < 0.01)
    }

    @Test func libraryModeFromEscPausesTheText() throws {
        let (controller, _) = try makeController()
        try controller.open(id: "Intro.txt", at: 0)
        controller.play(at: 0)
        controller.perform(.library, at: 2)
        #expect(controller.mode == .library)
        #expect(controller.engine.state == .paused)
        try controller.open(id: "Intro.txt", at: 3)
        #expect(controller.mode == .prompter)
    }
}
