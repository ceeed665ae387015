import Foundation

/// Runs one converter command for an imported document, off the event loop (the
/// importer's thread calls it). Output goes to a temporary file, not a pipe, so a
/// converter writing a large document never blocks on a full pipe while we wait for it.
struct ScriptConverter: Sendable {
    /// Where tools are looked up: the process's PATH unless a test gives its own.
    var searchPath: String
    /// A converter still running after this many seconds is killed.
    var timeout: Double

    /// The tool's full path, nil when it is not installed.
    func locate(_ tool: String) -> String? {
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(tool)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The converted text, or a sentence saying why there is none.
    func convert(_ source: URL, kind: ScriptImportKind) -> Result<String, ScriptImportFailure> {
        guard let tool = locate(kind.tool) else { return .failure(.missingTool(kind)) }
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("rig-import-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let outURL = scratch.appendingPathExtension("out"), errURL = scratch.appendingPathExtension("err")
        defer {
            unlink(outURL.path)
            unlink(errURL.path)
        }
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
              FileManager.default.createFile(atPath: errURL.path, contents: nil),
              let out = FileHandle(forWritingAtPath: outURL.path),
              let err = FileHandle(forWritingAtPath: errURL.path) else {
            return .failure(.failed(tool: kind.tool, reason: "cannot create a temporary file"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = kind.arguments(for: source.path)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        do {
            try process.run()
        } catch {
            return .failure(.failed(tool: kind.tool, reason: "\(error.localizedDescription)"))
        }
        try? out.close()
        try? err.close()
        if done.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            done.wait()
            return .failure(.timedOut(tool: kind.tool, seconds: timeout))
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let detail = String(decoding: FileManager.default.contents(atPath: errURL.path) ?? Data(), as: UTF8.self)
                .split(separator: "\n").first.map(String.init) ?? "exit status \(process.terminationStatus)"
            return .failure(.failed(tool: kind.tool, reason: detail))
        }
        let data = FileManager.default.contents(atPath: outURL.path) ?? Data()
        var text = ScriptDecoder.decode(data).text
        // pdftotext ends each page with a form feed: a page break is a paragraph break.
        text = text.replacingOccurrences(of: "\u{0C}", with: "\n\n")
        return .success(text)
    }
}

/// Why an imported document has no text, as the library lists it.
public enum ScriptImportFailure: Error, Equatable, Sendable, CustomStringConvertible {
    case missingTool(ScriptImportKind)
    case timedOut(tool: String, seconds: Double)
    case failed(tool: String, reason: String)

    public var description: String {
        switch self {
        case .missingTool(let kind): return kind.missingToolMessage
        case .timedOut(let tool, let seconds):
            return "cannot read it: \(tool) was still converting after \(Int(seconds)) s and was stopped."
        case .failed(let tool, let reason): return "cannot read it: \(tool) failed: \(reason)"
        }
    }
}
