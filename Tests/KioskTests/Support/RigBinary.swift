import Foundation

/// The `rig` executable built next to this test bundle, for tests that need a real
/// separate process (killing it, talking to it over a socket).
enum RigBinary {
    static var url: URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        while directory.path != "/" && !FileManager.default.fileExists(atPath: directory.appendingPathComponent("rig").path) {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("rig")
    }

    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }
}
