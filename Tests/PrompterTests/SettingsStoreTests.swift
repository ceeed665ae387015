import Foundation
import Testing
@testable import Prompter

@Suite struct SettingsStoreTests {
    @Test func missingFileGivesTheDefaultsWithoutAProblem() {
        let dir = TemporaryDirectory()
        let rig = ReadingSettings(fontSize: 72)
        let store = SettingsStore(directory: dir.url, defaults: rig)
        #expect(store.settings == rig)
        #expect(store.problem == nil)
        #expect(dir.names().isEmpty)
    }

    @Test func settingsSurviveARestart() throws {
        let dir = TemporaryDirectory()
        let store = SettingsStore(directory: dir.path("state"))
        try store.update { $0.mirror = true; $0.speed = 120; $0.textColor = .yellow }
        let restarted = SettingsStore(directory: dir.path("state"))
        #expect(restarted.settings.mirror)
        #expect(restarted.settings.speed == 120)
        #expect(restarted.settings.textColor == .yellow)
        #expect(dir.names(in: "state") == [SettingsStore.defaultFileName])
    }

    @Test func unreadableFileFallsBackAndIsKeptAsBad() throws {
        let dir = TemporaryDirectory()
        dir.write("reading-settings.json", "{ this is not json")
        let rig = ReadingSettings(fontFamily: .notoSerif)
        let store = SettingsStore(directory: dir.url, defaults: rig)
        #expect(store.settings == rig)
        let problem = try #require(store.problem)
        #expect(problem.contains("reading-settings.json.bad"))
        #expect(dir.read("reading-settings.json.bad") == "{ this is not json")
        #expect(!dir.exists("reading-settings.json"))
        try store.update { $0.flip = true }
        #expect(SettingsStore(directory: dir.url, defaults: rig).settings.flip)
        #expect(dir.exists("reading-settings.json.bad"))
    }

    @Test func jsonThatIsNotAnObjectIsUnreadable() {
        let dir = TemporaryDirectory()
        dir.write("reading-settings.json", "[1, 2, 3]")
        let store = SettingsStore(directory: dir.url)
        #expect(store.settings == .standard)
        #expect(store.problem != nil)
        #expect(dir.exists("reading-settings.json.bad"))
    }

    @Test func resumeStateSurvivesARestartAndBadFilesAreKept() throws {
        let dir = TemporaryDirectory()
        let store = ResumeStore(directory: dir.url)
        #expect(store.state == nil)
        try store.save(ResumeState(scriptID: "Talks/Keynote.md", offset: 1234.5, wordIndex: 321))
        let restarted = ResumeStore(directory: dir.url)
        #expect(restarted.state == ResumeState(scriptID: "Talks/Keynote.md", offset: 1234.5, wordIndex: 321))
        restarted.clear()
        #expect(ResumeStore(directory: dir.url).state == nil)

        dir.write(ResumeStore.defaultFileName, #"{"offset": 3}"#)
        let broken = ResumeStore(directory: dir.url)
        #expect(broken.state == nil)
        #expect(broken.problem?.contains("scriptID") == true)
        #expect(dir.exists("resume.json.bad"))
    }

    @Test func resumeStateClampsNonsense() {
        let state = ResumeState(scriptID: "a.txt", offset: -5, wordIndex: -2)
        #expect(state.offset == 0)
        #expect(state.wordIndex == 0)
    }
}
