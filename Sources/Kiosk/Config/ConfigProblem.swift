import Stage

/// Something wrong in rig.toml (or a --set override), with the place it was written.
struct ConfigProblem: Error, Equatable, CustomStringConvertible {
    enum Severity: Equatable { case error, warning }

    let file: String
    let line: Int
    let column: Int
    let message: String
    let severity: Severity

    static func error(_ place: ConfigPlace, _ message: String) -> ConfigProblem {
        ConfigProblem(file: place.file, line: place.line, column: place.column, message: message, severity: .error)
    }

    static func warning(_ place: ConfigPlace, _ message: String) -> ConfigProblem {
        ConfigProblem(file: place.file, line: place.line, column: place.column, message: message, severity: .warning)
    }

    /// `rig.toml:12:9: prompter.speed must be between 10 and 300, found 500`
    var description: String {
        let kind = severity == .warning ? "warning: " : ""
        guard line > 0 else { return "\(file): \(kind)\(message)" }
        return "\(file):\(line):\(column): \(kind)\(message)"
    }
}

/// Where a value came from: a file position, or the n-th `--set` on the command line.
struct ConfigPlace: Equatable, Sendable {
    let file: String
    let line: Int
    let column: Int
}
