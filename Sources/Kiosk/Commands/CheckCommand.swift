import Stage

/// `rig check`: validates rig.toml. Silent and 0 when it is valid; every problem as
/// `PATH:LINE:COL: message` on stderr and 2 when it is not. Warnings (unknown keys)
/// are printed but do not fail the check.
enum CheckCommand: Command {
    static let name = "check"
    static let summary = "Check rig.toml and report every problem with its place"
    static let help = """
        Usage: rig check [--config PATH] [--set KEY=VALUE ...]

          Prints nothing and exits 0 for a valid file. Otherwise prints each problem
          as PATH:LINE:COL: message on stderr and exits 2.

        Options:
        \(ConfigOptions.help)
        """

    static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32 {
        let options = try ConfigOptions(&arguments)
        try arguments.finish()
        let result = ConfigLoader.load(path: options.path, overrides: options.overrides)
        for problem in result.problems { Log.stderr(problem.description) }
        return result.errors.isEmpty ? 0 : 2
    }
}
