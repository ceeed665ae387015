import Foundation
import Testing
@testable import Kiosk
@testable import Stage

@Suite struct CLITests {
    private func temporaryFile(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rig-\(UUID()).toml")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func checkAcceptsAValidFile() throws {
        let path = try temporaryFile("[prompter]\nspeed = 90\n")
        #expect(CLI.appliance.main(["rig", "check", "--config", path]) == 0)
    }

    /// A valid file: exit status 0 and not a word on stdout or stderr (the README's
    /// promise, so `rig check && systemctl restart rig` stays quiet). Run as its own
    /// process, where its output can be read.
    @Test func checkIsSilentOnAValidFile() throws {
        let path = try temporaryFile("[prompter]\nspeed = 90\n")
        let process = Process()
        process.executableURL = RigBinary.url
        process.arguments = ["check", "--config", path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.isEmpty, "rig check printed: \(text)")
    }

    @Test func checkRejectsAnInvalidFile() throws {
        let path = try temporaryFile("[prompter]\nspeed = 900\n")
        #expect(CLI.appliance.main(["rig", "check", "--config", path]) == 2)
    }

    @Test func checkRejectsAMissingFile() {
        #expect(CLI.appliance.main(["rig", "check", "--config", "/nonexistent/rig.toml"]) == 2)
    }

    @Test func checkPassesWithOnlyWarnings() throws {
        let path = try temporaryFile("[prompter]\nfont_sise = 3\n")
        #expect(CLI.appliance.main(["rig", "check", "--config", path]) == 0)
    }

    @Test func everyCommandHasHelp() {
        for command in CLI.appliance.commands {
            #expect(CLI.appliance.main(["rig", command.name, "--help"]) == 0)
            #expect(command.help.contains(command.name))
        }
        #expect(CLI.appliance.main(["rig", "--help"]) == 0)
        #expect(CLI.appliance.main(["rig", "--version"]) == 0)
    }

    @Test func unknownCommandsAndArgumentsFail() {
        #expect(CLI.appliance.main(["rig", "chek"]) == 2)
        #expect(CLI.appliance.main(["rig"]) == 2)
        #expect(CLI.appliance.main(["rig", "check", "--bogus"]) == 2)
        #expect(CLI.appliance.main(["rig", "check", "--config"]) == 2)
    }
}
