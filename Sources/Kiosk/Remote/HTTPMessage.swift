import Foundation

/// One HTTP request as the remote sees it, read whole (bodies are small and capped).
package struct HTTPRequest {
    let method: String
    /// The path, percent-decoded by libmicrohttpd, without the query.
    let path: String
    let query: [String: String]
    /// Header names in lower case.
    package let headers: [String: String]
    package let cookies: [String: String]
    let body: Data
    let peer: SocketAddress?

    package init(method: String, path: String, query: [String: String], headers: [String: String],
                 cookies: [String: String], body: Data, peer: SocketAddress?) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.cookies = cookies
        self.body = body
        self.peer = peer
    }
}

/// What the remote answers: a whole body, or an event stream that stays open.
enum HTTPResponse {
    case body(status: Int, contentType: String, data: Data, headers: [(String, String)])
    case eventStream(EventStreamClient)

    static func json(_ status: Int, _ value: JSONValueText) -> HTTPResponse {
        .body(status: status, contentType: "application/json", data: Data((value.text + "\n").utf8), headers: [])
    }

    var status: Int {
        switch self {
        case let .body(status, _, _, _): status
        case .eventStream: 200
        }
    }
}

/// Serialized JSON (kept apart so this file needs no Stage import).
struct JSONValueText { let text: String }
