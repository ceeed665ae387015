import Foundation
import Synchronization
import Testing
@testable import Kiosk
@testable import Stage

@Suite struct EventLoopTests {
    @Test func runsWorkPostedFromAnotherThread() throws {
        let loop = try EventLoop()
        let received = Counter()
        let mailbox = loop.mailbox
        Thread.detachNewThread { mailbox.post { received.add() } }
        let deadline = loop.clock() + 5
        while received.value == 0 && loop.clock() < deadline { loop.runOnce(timeout: 1) }
        #expect(received.value == 1)
    }

    @Test func timersFireInDeadlineOrderAndNotBefore() throws {
        let loop = try EventLoop()
        var fired: [String] = []
        let start = loop.clock()
        loop.addTimer(at: start + 0.02) { fired.append("late") }
        loop.addTimer(at: start + 0.01) { fired.append("early") }
        let cancelled = loop.addTimer(at: start + 0.005) { fired.append("cancelled") }
        loop.cancel(cancelled)
        while fired.count < 2 && loop.clock() < start + 5 { loop.runOnce(timeout: 1) }
        #expect(fired == ["early", "late"])
        #expect(loop.clock() >= start + 0.02)
    }

    @Test func readerRunsWhenItsDescriptorIsReadable() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var bytes: [UInt8] = []
        loop.addReader(fd: fds[0], name: "pipe") {
            var byte: UInt8 = 0
            if read(fds[0], &byte, 1) == 1 { bytes.append(byte) }
        }
        var value: UInt8 = 42
        _ = write(fds[1], &value, 1)
        let deadline = loop.clock() + 5
        while bytes.isEmpty && loop.clock() < deadline { loop.runOnce(timeout: 0.5) }
        #expect(bytes == [42])
    }
}

private final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}
