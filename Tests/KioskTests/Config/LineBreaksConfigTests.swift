import Foundation
import Prompter
import Stage
import Testing
@testable import Kiosk

/// `[prompter] line_breaks`: validated like every key, from the file and from --set,
/// and handed to the script library and `rig snapshot`.
@Suite struct LineBreaksConfigTests {
    @Test func acceptsTheThreeWordsAndDefaultsToAuto() {
        #expect(RigConfig().prompter.lineBreaks == "auto")
        for word in ["auto", "keep", "join", "KEEP"] {
            let result = ConfigLoader.load(text: "[prompter]\nline_breaks = \"\(word)\"\n", name: "rig.toml")
            #expect(result.problems.isEmpty, "\(result.problems)")
            #expect(result.config.prompter.lineBreaks == word.lowercased())
        }
    }

    @Test func refusesAnythingElseWithItsPlace() throws {
        let result = ConfigLoader.load(text: "[prompter]\nline_breaks = \"joined\"\n", name: "rig.toml")
        #expect(result.errors.map(\.description) == [
            "rig.toml:2:15: prompter.line_breaks must be one of \"auto\", \"keep\", \"join\", found \"joined\" (did you mean \"join\"?)",
        ])
        #expect(result.config.prompter.lineBreaks == "auto")
        let wrongType = ConfigLoader.load(text: "[prompter]\nline_breaks = true\n", name: "rig.toml")
        #expect(wrongType.errors.map(\.description) == ["rig.toml:2:15: prompter.line_breaks must be a string, found a boolean"])

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rig-\(UUID()).toml")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("[prompter]\nline_breaks = \"wrap\"\n".utf8).write(to: url)
        #expect(CLI.appliance.main(["rig", "check", "--config", url.path]) == 2)
    }

    @Test func setOverridesTheFile() {
        let result = ConfigLoader.load(text: "[prompter]\nline_breaks = \"keep\"\n", name: "rig.toml",
                                       overrides: ["prompter.line_breaks=join"])
        #expect(result.problems.isEmpty)
        #expect(result.config.prompter.lineBreaks == "join")
        let bad = ConfigLoader.load(text: "", name: "rig.toml", overrides: ["prompter.line_breaks=never"])
        #expect(bad.errors.map(\.description) == [
            "--set #1 prompter.line_breaks=never: prompter.line_breaks must be one of \"auto\", \"keep\", \"join\", found \"never\"",
        ])
    }

    @Test func theKioskLibraryReadsWithTheSetting() throws {
        for (word, expected) in [("keep", LineBreaks.keep), ("join", .join)] {
            let rig = try ConsoleHarness(overrides: ["prompter.line_breaks=\(word)"])
            #expect(rig.app.stage.controller.library?.lineBreaks == expected)
        }
        #expect(try ConsoleHarness().app.stage.controller.library?.lineBreaks == .auto)
    }

    @Test func snapshotReadsWithTheSetting() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rig-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: url) }
        let wrapped = Array(repeating: Array(repeating: "word", count: 14).joined(separator: " "), count: 4)
            .joined(separator: "\n")
        try Data(wrapped.utf8).write(to: url)
        let kept = try SnapshotCommand.readScript(url.path, maxBytes: 1 << 20, lineBreaks: .keep)
        let auto = try SnapshotCommand.readScript(url.path, maxBytes: 1 << 20, lineBreaks: .auto)
        #expect(kept.readingText == wrapped)
        #expect(auto.readingText == wrapped.replacingOccurrences(of: "\n", with: " "))
    }
}
