import Foundation
import Stage

/// Reads a Server-Sent Events stream from the remote: each `data:` line as JSON.
final class EventStreamReader {
    let client: RawHTTP
    private var buffered = ""

    init(port: UInt16, token: String) throws {
        client = try RawHTTP(port: port)
        client.send("GET /api/events HTTP/1.1\r\nHost: x\r\nX-Rig-Token: \(token)\r\nAccept: text/event-stream\r\n\r\n")
    }

    /// The next event's data whose JSON satisfies `wanted`, or nil after `timeout`.
    func next(timeout: Double, where wanted: (JSONValue) -> Bool = { _ in true }) -> JSONValue? {
        let deadline = Date() + timeout
        while true {
            while let newline = buffered.firstIndex(of: "\n") {
                let line = String(buffered[..<newline]).trimmingCharacters(in: .init(charactersIn: "\r"))
                buffered.removeSubrange(...newline)
                // Chunked transfer: the data lines carry the JSON; size lines are skipped.
                if line.hasPrefix("data: "), let json = JSONValue.parse(Data(line.dropFirst(6).utf8)), wanted(json) {
                    return json
                }
            }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return nil }
            let (data, closed) = client.readSome(timeout: min(remaining, 0.05))
            if closed { return nil }
            buffered += String(decoding: data, as: UTF8.self)
        }
    }
}
