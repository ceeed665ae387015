import Foundation
import Stage

/// Reads a Server-Sent Events stream from the remote: each `data:` line as JSON.
final class EventStreamReader {
    let client: RawHTTP
    private var buffered = ""

    /// A stream opened with an API key (`token`) or a paired phone's cookie, from `source`.
    init(port: UInt16, token: String?, cookie: String? = nil, source: String? = nil) throws {
        client = try RawHTTP(port: port, source: source)
        let credential = token.map { "X-Rig-Key: \($0)\r\n" } ?? cookie.map { "Cookie: \($0)\r\n" } ?? ""
        client.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\(credential)Accept: text/event-stream\r\n\r\n")
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
