import Stage

/// One `rig` subcommand.
package protocol Command: SendableMetatype {
    static var name: String { get }
    static var summary: String { get }
    /// The `--help` text: usage line, then options.
    static var help: String { get }
    /// Returns the exit status.
    static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32
    /// The command reads SIGTERM and SIGINT on its event loop (`SignalWatcher`), so the
    /// dispatcher blocks them before the command starts a thread (`ProcessSignals`).
    static var watchesSignals: Bool { get }
}

extension Command {
    package static var watchesSignals: Bool { false }
}

/// A row of the subcommand table: a real command, or one still to come that says so
/// and fails, so a script never mistakes it for success.
package struct CommandEntry: Sendable {
    package let name: String
    package let summary: String
    package let help: String
    package let watchesSignals: Bool
    package let run: @Sendable (inout Arguments) throws(CLIError) -> Int32

    package init<C: Command>(_ command: C.Type) {
        name = C.name
        summary = C.summary
        help = C.help
        watchesSignals = C.watchesSignals
        run = { (arguments: inout Arguments) throws(CLIError) -> Int32 in try C.run(&arguments) }
    }

    package static func pending(_ name: String, _ summary: String) -> CommandEntry {
        CommandEntry(name: name, summary: summary, help: "rig \(name)\n\n  \(summary).\n  Not available yet in this build.") { _ in
            Log.stderr("rig \(name): not available yet in this build")
            return 2
        }
    }

    private init(name: String, summary: String, help: String,
                 run: @escaping @Sendable (inout Arguments) throws(CLIError) -> Int32) {
        self.name = name
        self.summary = summary
        self.help = help
        watchesSignals = false
        self.run = run
    }
}
