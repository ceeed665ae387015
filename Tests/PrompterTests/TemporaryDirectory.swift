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
