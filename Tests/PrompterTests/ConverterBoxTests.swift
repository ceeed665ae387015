import Foundation
import Testing
@testable import Prompter

/// The converters' box with hostile documents and a hostile converter: text past
/// `max_script_mb` and zip bombs are refused with a "too large" line, within the wall
/// limit and the memory limit; a stopped importer leaves no converter behind; a converter
/// opens no socket and reads no recording.
@Suite(.serialized) struct ConverterBoxTests {
    /// Waits for the importer, sampling its converter's peak resident size (VmHWM) as it
    /// goes; returns the largest seen.
    private func waitSamplingPeak(_ library: ScriptLibrary, seconds: Double) -> Int {
        let deadline = Date() + seconds
        var peak = 0
        while Date() < deadline && !library.importer.waitUntilIdle(timeout: 0.005) {
            if let pid = library.importer.runningConverter { peak = max(peak, ConverterBox.residentPeak(of: pid)) }
        }
        return peak
    }

    @Test func aZipBombDocxIsRefusedAsTooLargeWithinItsLimits() throws {
        let dir = TemporaryDirectory()
        try HostileDocuments.zipBombDocx(at: dir.path("Bomb.docx"), megabytes: 300)
        let started = Date()
        let library = try ScriptLibrary(root: dir.url, maxScriptBytes: 16 << 20)
        let peak = waitSamplingPeak(library, seconds: 45)
        let elapsed = Date().timeIntervalSince(started)
        library.refresh()
        let reason = try #require(library.entry(id: "Bomb.docx")?.skipReason)
        #expect(reason.hasPrefix("too large: "), "\(reason)")
        #expect(peak > 0 && peak < 1_100_000_000, "converter peak resident \(peak) bytes")
        #expect(elapsed < ScriptLibrary.defaultImportTimeout, "took \(elapsed) s")
        #expect(library.importer.conversionsRun == 1)
        print("zip bomb: \(reason) peak \(peak >> 20) MB in \(String(format: "%.1f", elapsed)) s")
    }

    @Test func aPDFWithHundredsOfMegabytesOfTextStopsAtTheLimit() throws {
        let dir = TemporaryDirectory()
        try HostileDocuments.textBombPDF(at: dir.path("Endless.pdf"), megabytes: 200)
        let library = try ScriptLibrary(root: dir.url, maxScriptBytes: 1 << 20)
        #expect(library.importer.waitUntilIdle(timeout: 45))
        library.refresh()
        #expect(library.entry(id: "Endless.pdf")?.skipReason
                == "too large: the converted text is over 1 MB (max_script_mb).")
        // The refusal is cached with its limit: the same limit does not convert again,
        // a higher one would.
        let again = try ScriptLibrary(root: dir.url, maxScriptBytes: 1 << 20)
        #expect(again.importer.waitUntilIdle(timeout: 10))
        again.refresh()
        #expect(again.importer.conversionsRun == 0)
        #expect(again.entry(id: "Endless.pdf")?.skipReason?.hasPrefix("too large: ") == true)
        #expect(throws: ScriptLibraryError.notImported(id: "Endless.pdf",
                                                       reason: "too large: the converted text is over 1 MB (max_script_mb).")) {
            try again.readScript(id: "Endless.pdf")
        }
    }

    /// A fake converter (a script named pandoc on the library's search path) that
    /// reports what it could do as its "converted text".
    private func fakePandoc(_ body: String, in tools: TemporaryDirectory) throws {
        try tools.writeExecutable("pandoc", "#!/bin/bash\n" + body)
    }

    /// Processes of process group `group` that have not ended (zombies have).
    private func livingMembers(ofGroup group: pid_t) -> [pid_t] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { pid_t($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            // After "pid (comm)": state, ppid, pgrp.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[0] != "Z" && pid_t(fields[2]) == group
        }
    }

    @Test func stoppingTheImporterKillsTheConverterAndItsGroup() throws {
        let dir = TemporaryDirectory()
        _ = dir.write("Slow.docx", "not really a document")
        let tools = TemporaryDirectory()
        // A converter with a child of its own, both asleep: SIGTERM-proof enough.
        try fakePandoc("trap '' TERM\nsleep 30 &\nwait\n", in: tools)
        let library = try ScriptLibrary(root: dir.url, converterSearchPath: tools.url.path)
        let deadline = Date() + 20
        var pid: pid_t?
        while Date() < deadline && (pid == nil || livingMembers(ofGroup: pid!).count < 2) {
            pid = library.importer.runningConverter
            _ = library.importer.waitUntilIdle(timeout: 0.01)
        }
        let converter = try #require(pid)
        #expect(livingMembers(ofGroup: converter).count == 2, "the converter and its sleep")
        library.importer.stop()
        let gone = Date() + 10
        while Date() < gone && !livingMembers(ofGroup: converter).isEmpty {
            _ = library.importer.waitUntilIdle(timeout: 0.01)
        }
        #expect(livingMembers(ofGroup: converter).isEmpty)
        #expect(library.importer.runningConverter == nil)
        // Stopped is not a verdict: nothing is cached for the document.
        #expect(!FileManager.default.fileExists(atPath: dir.path(".Slow.docx.rig-import").path))
    }

    /// PR_SET_PDEATHSIG: a converter started by a thread that ends (as the importer's
    /// does when the kiosk dies) gets SIGKILL from the kernel, with nobody left to kill it.
    @Test func aConverterDiesWithTheThreadThatStartedIt() throws {
        final class Started: @unchecked Sendable { var pid: pid_t = 0 }
        let scratch = TemporaryDirectory()
        let started = Started()
        let ended = DispatchSemaphore(value: 0)
        let path = scratch.url.path
        let thread = Thread {
            let out = open(path + "/out", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            defer { close(out) }
            let limits = ConverterBox.Limits(wallSeconds: 30, addressSpaceBytes: 1 << 30, fileSizeBytes: 1 << 20)
            if case .success(let pid) = ConverterBox().start(tool: "/bin/sleep", arguments: ["30"], input: "/dev/null",
                                                             scratch: path, output: out, errors: out, limits: limits) {
                started.pid = pid
            }
            ended.signal()
        }
        thread.start()
        ended.wait()
        let pid = started.pid
        try #require(pid > 0)
        var status: Int32 = 0
        var reaped: pid_t = 0
        let deadline = Date() + 10
        while reaped == 0 && Date() < deadline {
            reaped = waitpid(pid, &status, WNOHANG)
            if reaped == 0 { usleep(5_000) }
        }
        #expect(reaped == pid, "the converter outlived its thread")
        #expect(status & 0x7f == SIGKILL)
    }

    @Test func aConverterCannotOpenASocket() throws {
        let dir = TemporaryDirectory()
        _ = dir.write("Net.docx", "not really a document")
        let tools = TemporaryDirectory()
        try fakePandoc("""
            tcp=$( (exec 3<>/dev/tcp/127.0.0.1/9) 2>&1 )
            unix=$(/usr/bin/python3 -c 'import socket; socket.socket(socket.AF_UNIX)' 2>&1 | tail -1)
            echo "tcp: $tcp"
            echo
            echo "unix: $unix"
            """, in: tools)
        let library = try ScriptImportTests.idleLibrary(dir, path: tools.url.path)
        let text = try library.readScript(id: "Net.docx").source
        #expect(text.contains("tcp: ") && text.contains("Permission denied"), "\(text)")
        #expect(!text.contains("Connection refused"), "\(text)")
        #expect(text.contains("unix: PermissionError"), "\(text)")
    }

    @Test(.enabled(if: ConverterBox.landlockABI > 0, "the kernel has no landlock: converters can read the recordings"))
    func aConverterCannotReadTheRecordings() throws {
        let root = TemporaryDirectory()
        let take = root.write("recordings/take-1.wav", "the talent's take")
        _ = root.write("scripts/Peek.docx", "not really a document")
        let tools = TemporaryDirectory()
        try fakePandoc("""
            echo "take: $(cat '\(take.path)' 2>&1)"
            echo
            echo "folder: $(ls '\(take.deletingLastPathComponent().path)' 2>&1)"
            echo
            echo "input: $(cat "${@: -1}")"
            """, in: tools)
        let library = try ScriptLibrary(root: root.path("scripts"), converterSearchPath: tools.url.path)
        #expect(library.importer.waitUntilIdle(timeout: 30))
        library.refresh()
        let text = try library.readScript(id: "Peek.docx").source
        #expect(!text.contains("the talent's take"), "\(text)")
        #expect(text.contains("take: cat: \(take.path): Permission denied"), "\(text)")
        #expect(text.contains("folder: ls: cannot open directory"), "\(text)")
        #expect(text.contains("input: not really a document"), "its own input it reads: \(text)")
    }
}
