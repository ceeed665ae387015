import Foundation
import Glibc
import Stage

/// One connection to the control socket: its descriptor, what it has sent that is not
/// yet a whole line, and replies it has not read yet.
final class ControlClient {
    enum Received {
        case lines([Data], overflowed: Bool)
        case closed
    }

    let fd: Int32
    let source: EventLoop.SourceID
    private var partial = Data()
    private var discarding = false
    private var outgoing = Data()

    init(fd: Int32, source: EventLoop.SourceID) {
        self.fd = fd
        self.source = source
    }

    deinit { close(fd) }

    /// Reads what is there without blocking and splits it into lines. A line longer
    /// than `limit` is discarded up to its newline and reported once as overflowed.
    func receive(limit: Int) -> Received {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var lines: [Data] = []
        var overflowed = false
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count == 0 { return .closed }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                if errno == EINTR { continue }
                return .closed
            }
            for byte in buffer[0..<count] {
                if byte == UInt8(ascii: "\n") {
                    if !discarding { lines.append(partial) }
                    partial.removeAll(keepingCapacity: true)
                    discarding = false
                } else if !discarding {
                    partial.append(byte)
                    if partial.count > limit {
                        partial.removeAll()
                        discarding = true
                        overflowed = true
                    }
                }
            }
        }
        return .lines(lines, overflowed: overflowed)
    }

    func send(_ line: Data) { outgoing.append(line) }

    /// Writes what the socket takes now. False when the client is gone or has let
    /// more than `limit` bytes of replies pile up.
    func flush(limit: Int) -> Bool {
        while !outgoing.isEmpty {
            let written = outgoing.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                outgoing.removeFirst(written)
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return outgoing.count <= limit
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}
