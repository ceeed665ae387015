import Foundation
@testable import Prompter

/// A fresh directory per test, removed when the test's value goes away.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("rig-prompter-tests-\(getpid())-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ relative: String) -> URL {
        url.appendingPathComponent(relative)
    }

    /// Writes a file (creating its folder) with a given modification time, seconds since 1970.
    @discardableResult
    func write(_ relative: String, _ bytes: [UInt8], modified: Double? = nil) -> URL {
        let file = path(relative)
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(bytes))
        if let modified {
            try? FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: modified)],
                                                   ofItemAtPath: file.path)
        }
        return file
    }

    @discardableResult
    func write(_ relative: String, _ text: String, modified: Double? = nil) -> URL {
        write(relative, Array(text.utf8), modified: modified)
    }

    /// Writes a program a test will run. Another test's thread that forks while this
    /// process holds the file open for writing keeps a write descriptor on it until that
    /// child execs, and running the program meanwhile fails with "Text file busy"
    /// (ETXTBSY). So the text goes to a side file and `install` makes the program in its
    /// own process, whose descriptor no fork here can inherit.
    @discardableResult
    func writeExecutable(_ relative: String, _ text: String) throws -> URL {
        let file = path(relative)
        let source = write(relative + ".source", text)
        let install = Process()
        install.executableURL = URL(fileURLWithPath: "/usr/bin/install")
        install.arguments = ["-m", "755", source.path, file.path]
        try install.run()
        install.waitUntilExit()
        guard install.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        return file
    }

    func read(_ relative: String) -> String? {
        (try? Data(contentsOf: path(relative))).map { String(decoding: $0, as: UTF8.self) }
    }

    func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: path(relative).path)
    }

    /// Every name in a directory, hidden ones included.
    func names(in relative: String = "") -> [String] {
        let dir = relative.isEmpty ? url : path(relative)
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }
}
