import Foundation

/// One HTTP request as the remote sees it, read whole (bodies are small and capped).
struct HTTPRequest {
    let method: String
    /// The path, percent-decoded by libmicrohttpd, without the query.
    let path: String
    let query: [String: String]
    /// Header names in lower case.
    let headers: [String: String]
    let cookies: [String: String]
    let body: Data
    let peer: SocketAddress?
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
