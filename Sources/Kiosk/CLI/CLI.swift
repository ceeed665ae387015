import Stage

/// `rig`: the dispatcher over a table of subcommands. Exit status 0 on success, 2 on
/// bad input or failure. The appliance's commands are here; the `rig` executable adds
/// the tools' (`rig bench`) to the same table.
package struct CLI: Sendable {
    package static let version = BuildVersion.string

    /// The appliance's subcommands, in `rig --help`'s order; `tools` go before `remote-unit`.
    package static func applianceCommands(tools: [CommandEntry] = []) -> [CommandEntry] {
        [
            CommandEntry(RunCommand.self),
            CommandEntry(CheckCommand.self),
            CommandEntry(SnapshotCommand.self),
            CommandEntry(DevicesCommand.self),
            CommandEntry(SelfTestCommand.self),
            CommandEntry(CtlCommand.self),
            CommandEntry(SpeakCommand.self),
        ] + tools + [CommandEntry(RemoteUnitCommand.self)]
    }

    /// Test aids: runnable, but not listed in `rig --help`.
    package static let hiddenApplianceCommands: [CommandEntry] = [
        CommandEntry(StateWriterCommand.self),
        CommandEntry(CameraProbeCommand.self),
        CommandEntry(InputProbeCommand.self),
        CommandEntry(ListenCommand.self),
    ]

    /// The appliance's commands alone (tests of the dispatcher).
    package static let appliance = CLI(commands: applianceCommands(), hidden: hiddenApplianceCommands)

    package let commands: [CommandEntry]
    let hiddenCommands: [CommandEntry]

    package init(commands: [CommandEntry], hidden: [CommandEntry]) {
        self.commands = commands
        hiddenCommands = hidden
    }

    var help: String {
        let width = commands.map(\.name.count).max() ?? 0
        let rows = commands.map { "  \($0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0))\($0.summary)" }
        return """
            rig \(Self.version): a two-display teleprompter appliance on DRM/KMS

            Usage: rig <command> [options]

            Commands:
            \(rows.joined(separator: "\n"))

            Options:
              --help       show this help, or a command's help after the command
              --version    print the version

            """
    }

    package func main(_ argv: [String]) -> Int32 {
        var words = Array(argv.dropFirst())
        guard let first = words.first else {
            Log.stderr(help)
            return 2
        }
        if first == "--help" || first == "-h" || first == "help" {
            Log.stdout(help)
            return 0
        }
        if first == "--version" {
            Log.stdout("rig \(Self.version)")
            return 0
        }
        guard let command = (commands + hiddenCommands).first(where: { $0.name == first }) else {
            let hint = Suggestion.closest(to: first, in: commands.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
            Log.stderr("rig: unknown command '\(first)'\(hint); see rig --help")
            return 2
        }
        words.removeFirst()
        if words.contains("--help") || words.contains("-h") {
            Log.stdout(command.help)
            return 0
        }
        // Before the command can start any thread: threads inherit the block.
        if command.watchesSignals { ProcessSignals.claim() }
        var arguments = Arguments(words)
        do {
            return try command.run(&arguments)
        } catch {
            Log.stderr("rig \(command.name): \(error)")
            return 2
        }
    }
}
