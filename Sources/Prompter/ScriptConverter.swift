import Foundation

/// Runs one converter command for an imported document in its box (`ConverterBox`), on
/// the importer's thread. Output goes to a file in the conversion's scratch directory,
/// not a pipe, so a converter writing a large document never blocks while we wait; the
/// box caps that file just past `max_script_mb`, so a document whose text would be
/// larger stops the converter instead of filling the disk and the kiosk's memory.
struct ScriptConverter: Sendable {
    /// Where tools are looked up: the process's PATH unless a test gives its own.
    var searchPath: String
    /// A converter still running after this many seconds is killed.
    var timeout: Double
    /// RLIMIT_AS for a converter. pandoc holds the whole document as a tree and needs
    /// about 600 MB for a 300 MB document.xml before giving up; a real script needs tens.
    static let addressSpaceBytes = 1 << 30

    /// The tool's full path, nil when it is not installed.
    func locate(_ tool: String) -> String? {
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(tool)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The converted text (at most `maxBytes` bytes), or a sentence saying why there is
    /// none. `started` and `shouldStop` go to the box.
    func convert(_ source: URL, kind: ScriptImportKind, maxBytes: Int, started: (pid_t) -> Void = { _ in },
                 shouldStop: () -> Bool = { false }) -> Result<String, ScriptImportFailure> {
        guard let tool = locate(kind.tool) else { return .failure(.missingTool(kind)) }
        var template = Array((FileManager.default.temporaryDirectory.path + "/rig-import-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            return .failure(.failed(tool: kind.tool, reason: "cannot create a temporary directory"))
        }
        let scratch = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let out = open(scratch + "/out", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        let err = open(scratch + "/err", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        defer {
            if out >= 0 { close(out) }
            if err >= 0 { close(err) }
        }
        guard out >= 0, err >= 0 else {
            return .failure(.failed(tool: kind.tool, reason: "cannot create a temporary file"))
        }
        // One byte past the limit is enough to know the text is over it.
        let limits = ConverterBox.Limits(wallSeconds: timeout, addressSpaceBytes: Self.addressSpaceBytes,
                                         fileSizeBytes: maxBytes + 1)
        let run: ConverterBox.Run
        switch ConverterBox().run(tool: tool, arguments: kind.arguments(for: source.path), input: source.path,
                                  scratch: scratch, output: out, errors: err, limits: limits, started: started,
                                  shouldStop: shouldStop) {
        case .success(let done): run = done
        case .failure(let failure): return .failure(failure)
        }
        let written = Int(lseek(out, 0, SEEK_END))
        if written > maxBytes { return .failure(.tooLarge(limit: maxBytes)) }
        let firstError = Self.firstLine(of: scratch + "/err")
        switch run.ending {
        case .stopped: return .failure(.stopped)
        case .timedOut: return .failure(.timedOut(tool: kind.tool, seconds: timeout))
        case .exited(0): break
        case .exited(let status):
            if Self.ranOutOfMemory(firstError, status: status) { return .failure(.outOfMemory(tool: kind.tool)) }
            return .failure(.failed(tool: kind.tool, reason: firstError ?? "exit status \(status)"))
        case .signaled(let signal):
            if signal == SIGXFSZ { return .failure(.tooLarge(limit: maxBytes)) }
            if Self.ranOutOfMemory(firstError, status: nil) { return .failure(.outOfMemory(tool: kind.tool)) }
            return .failure(.failed(tool: kind.tool, reason: firstError ?? "killed by signal \(signal)"))
        }
        let data = FileManager.default.contents(atPath: scratch + "/out") ?? Data()
        var text = ScriptDecoder.decode(data).text
        // pdftotext ends each page with a form feed: a page break is a paragraph break.
        text = text.replacingOccurrences(of: "\u{0C}", with: "\n\n")
        return .success(text)
    }

    /// What pandoc (GHC's "out of memory", exit 251) and pdftotext (C++'s bad_alloc) say
    /// when RLIMIT_AS refuses them more memory.
    private static func ranOutOfMemory(_ message: String?, status: Int32?) -> Bool {
        if status == 251 { return true }
        guard let message = message?.lowercased() else { return false }
        return ["out of memory", "bad_alloc", "cannot allocate memory", "heap exhausted"].contains {
            message.contains($0)
        }
    }

    private static func firstLine(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        return String(decoding: head, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }
}
