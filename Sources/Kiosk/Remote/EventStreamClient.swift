import CMicroHTTPD
import Foundation

/// One open Server-Sent Events stream. Events are queued here; libmicrohttpd pulls
/// them through `read`. With nothing to send, the connection is suspended (it costs
/// nothing in the loop) and resumed when the next event comes.
final class EventStreamClient {
    /// Past this, a reader that does not keep up is dropped.
    static let maxPendingBytes = 1 << 20

    private var pending = Data()
    private var connection: OpaquePointer?
    private weak var server: HTTPServer?
    private var suspended = false
    private var ending = false
    private(set) var open = true

    func attach(connection: OpaquePointer, server: HTTPServer) {
        self.connection = connection
        self.server = server
    }

    /// Called when libmicrohttpd is done with the connection.
    func detach() {
        open = false
        connection = nil
    }

    /// Queues one event (`event:` name and one `data:` line of JSON).
    func send(event: String, data: String) {
        guard open, !ending else { return }
        pending.append(contentsOf: "event: \(event)\ndata: \(data)\n\n".utf8)
        if pending.count > Self.maxPendingBytes { ending = true; pending.removeAll() }
        wake()
    }

    /// A comment line, so a dead peer is noticed and proxies keep the stream.
    func heartbeat() {
        guard open, !ending else { return }
        pending.append(contentsOf: ": keep-alive\n\n".utf8)
        wake()
    }

    /// Ends the stream: the server is stopping (`pump` false: it runs libmicrohttpd once
    /// more itself), or the rig closes it (its phone revoked, its address over its share).
    func end(pump: Bool = true) {
        ending = true
        wake(pump: pump)
    }

    /// Resumes a stream that waited for data, and has libmicrohttpd write what is queued
    /// soon: an event queued outside its run (the live publisher's look, a timer) would
    /// otherwise wait for its next timeout.
    private func wake(pump: Bool = true) {
        if suspended, let connection {
            suspended = false
            MHD_resume_connection(connection)
        }
        if pump, connection != nil { server?.pumpSoon() }
    }

    fileprivate(set) var bytesSent = 0

    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        if ending && pending.isEmpty { return rig_mhd_end_of_stream }
        guard !pending.isEmpty else {
            if let connection, !suspended {
                suspended = true
                MHD_suspend_connection(connection)
            }
            return 0
        }
        let count = min(max, pending.count)
        pending.withUnsafeBytes { raw in
            UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress!, byteCount: count)
        }
        pending.removeFirst(count)
        bytesSent += count
        return count
    }
}
