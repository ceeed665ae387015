import Foundation
import Kiosk
import Stage

/// Runs a peer script (bench/peers/*.py) under Debian's python3 and returns its JSON
/// object, or why it could not: the reason ends up in the report as "unavailable".
struct PeerRunner: Sendable {
    static let python = "/usr/bin/python3"
    static let installHint = "run scripts/install-deps bench"

    var benchDirectory: String

    enum Failure: Error, CustomStringConvertible, Equatable {
        case missingPython
        case missingScript(String)
        case launch(String, String)
        case exited(String, Int32, String)
        case badOutput(String, String)
        /// `rig bench --no-peers`.
        case notRun

        var description: String {
            switch self {
            case .missingPython: "\(PeerRunner.python) not found; \(PeerRunner.installHint)"
            case let .missingScript(path): "peer script \(path) not found"
            case let .launch(script, why): "could not start \(script): \(why)"
            case let .exited(script, status, stderr):
                "\(script) exited with status \(status)" + (stderr.isEmpty ? "" : ": \(stderr)")
            case let .badOutput(script, why): "\(script) printed no JSON object: \(why)"
            case .notRun: "not run (--no-peers)"
            }
        }
    }

    func run(_ script: String, _ arguments: [String]) -> Result<[String: Any], Failure> {
        let fm = FileManager.default
        guard fm.isExecutableFile(atPath: Self.python) else { return .failure(.missingPython) }
        let path = benchDirectory + "/peers/" + script
        guard fm.fileExists(atPath: path) else { return .failure(.missingScript(path)) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [path] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do {
            try process.run()
        } catch {
            return .failure(.launch(script, "\(error)"))
        }
        // The peers print one line of JSON and little on stderr, so reading stdout to
        // its end before stderr cannot fill the stderr pipe and deadlock.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let status = process.terminationStatus
        guard status == 0 else {
            return .failure(.exited(script, status, Self.lastLine(of: stderr)))
        }
        return Self.parseObject(stdout).mapError { .badOutput(script, $0.why) }
    }

    /// The last non-empty line: for a Python traceback, the exception itself (a
    /// missing gi namespace names the package to install).
    static func lastLine(of data: Data) -> String {
        String(decoding: data, as: UTF8.self)
            .split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map(String.init) ?? ""
    }

    struct OutputError: Error, Equatable { var why: String }

    static func parseObject(_ data: Data) -> Result<[String: Any], OutputError> {
        do {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                return .failure(OutputError(why: "the output is not a JSON object"))
            }
            return .success(object)
        } catch {
            let head = String(decoding: data.prefix(120), as: UTF8.self)
            return .failure(OutputError(why: head.isEmpty ? "empty output" : "cannot parse '\(head)'"))
        }
    }
}
