import Durable
import Foundation
import Testing
@testable import Prompter

/// Real inotify on a temporary directory. Waiting is poll(2) on the watcher's
/// descriptor with a deadline, as the kiosk's loop does; nothing sleeps.
@Suite struct ScriptFolderWatcherTests {
    /// Drains until a change is reported or the deadline passes.
    func changeArrives(_ watcher: ScriptFolderWatcher, within seconds: Double = 5) -> Bool {
        let deadline = Date() + seconds
        var descriptor = pollfd(fd: watcher.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return false }
            let ready = poll(&descriptor, 1, Int32(remaining * 1000) + 1)
            if ready < 0, errno != EINTR { return false }
            if ready > 0, watcher.drain() { return true }
        }
    }

    /// True if the descriptor is readable right now (no waiting).
    func readableNow(_ watcher: ScriptFolderWatcher) -> Bool {
        var descriptor = pollfd(fd: watcher.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    @Test func quietLibraryReportsNothing() throws {
        let dir = TemporaryDirectory()
        let watcher = try ScriptFolderWatcher(root: dir.url)
        #expect(!readableNow(watcher))
        #expect(!watcher.drain())
    }

    @Test func newScriptAtTheTopLevelIsNoticed() throws {
        let dir = TemporaryDirectory()
        let watcher = try ScriptFolderWatcher(root: dir.url)
        dir.write("From USB.txt", "hello")
        #expect(changeArrives(watcher))
        #expect(!watcher.drain())              // everything was consumed
    }

    /// A dropped document, and the hidden cache file a finished import writes (that wakes
    /// the kiosk to list it), are noticed.
    @Test func anImportCacheArrivingIsNoticed() throws {
        let dir = TemporaryDirectory()
        let watcher = try ScriptFolderWatcher(root: dir.url)
        dir.write("Talk.docx", "a document")
        #expect(changeArrives(watcher))
        dir.write(".Talk.docx.rig-import", "rig-import 1 size=1 mtime=1 ok\ntext")
        #expect(changeArrives(watcher))
        dir.write(".hidden-note", "not a script")
        #expect(!changeArrives(watcher, within: 0.3))
    }

    @Test func editsInAnExistingFolderAreNoticed() throws {
        let dir = TemporaryDirectory()
        dir.write("Talks/Keynote.md", "v1")
        let watcher = try ScriptFolderWatcher(root: dir.url)
        #expect(watcher.watchedFolders == ["", "Talks"])
        dir.write("Talks/Keynote.md", "v2")
        #expect(changeArrives(watcher))
    }

    @Test func foldersCreatedLaterAreWatchedToo() throws {
        let dir = TemporaryDirectory()
        let watcher = try ScriptFolderWatcher(root: dir.url)
        try FileManager.default.createDirectory(at: dir.path("New"), withIntermediateDirectories: false)
        #expect(changeArrives(watcher))
        #expect(watcher.watchedFolders == ["", "New"])
        dir.write("New/Script.txt", "hi")
        #expect(changeArrives(watcher))
    }

    @Test func atomicSavesAndDeletesAreNoticed() throws {
        let dir = TemporaryDirectory()
        dir.write("A.txt", "a")
        let watcher = try ScriptFolderWatcher(root: dir.url)
        try AtomicFile.write(Data("b".utf8), to: dir.path("A.txt"))
        #expect(changeArrives(watcher))
        try FileManager.default.removeItem(at: dir.path("A.txt"))
        #expect(changeArrives(watcher))
    }

    @Test func unrelatedFilesAreIgnored() throws {
        let dir = TemporaryDirectory()
        let watcher = try ScriptFolderWatcher(root: dir.url)
        dir.write("photo.jpg", [0xFF, 0xD8])
        dir.write(".partial.txt", "x")
        // The events arrive (the descriptor becomes readable) but mean no change.
        var descriptor = pollfd(fd: watcher.fileDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 5_000) == 1)
        #expect(!watcher.drain())
        // A script written afterwards still comes through.
        dir.write("Real.txt", "x")
        #expect(changeArrives(watcher))
    }

    @Test func missingRootIsAClearError() {
        let dir = TemporaryDirectory()
        do {
            _ = try ScriptFolderWatcher(root: dir.path("absent"))
            Issue.record("watching a missing directory succeeded")
        } catch {
            #expect(error.description.contains("absent"))
        }
    }
}
