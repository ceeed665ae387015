import CMicroHTTPD
import Foundation

/// One request in flight on libmicrohttpd: what its body has brought so far and
/// whether it has been answered. Lives from the first access callback to the
/// completion callback (HTTPServer holds it retained in between).
final class HTTPExchange {
    let connection: OpaquePointer
    var body = Data()
    private(set) var answered = false
    var stream: EventStreamClient?

    init(connection: OpaquePointer) { self.connection = connection }

    func header(_ name: String) -> String? {
        MHD_lookup_connection_value(connection, rig_mhd_header_kind, name).map { String(cString: $0) }
    }

    func request(method: String, url: String) -> HTTPRequest {
        var headers: [String: String] = [:]
        for (key, value) in values(rig_mhd_header_kind) { headers[key.lowercased()] = value }
        return HTTPRequest(method: method, path: url, query: Dictionary(values(rig_mhd_query_kind)) { $1 },
                           headers: headers, cookies: Dictionary(values(rig_mhd_cookie_kind)) { $1 }, body: body,
                           peer: rig_mhd_client_address(connection).flatMap(SocketAddress.init))
    }

    private final class Collected { var pairs: [(String, String)] = [] }

    private func values(_ kind: MHD_ValueKind) -> [(String, String)] {
        let collected = Collected()
        _ = withExtendedLifetime(collected) {
            MHD_get_connection_values(connection, kind, { cls, _, key, value in
                guard let cls, let key else { return rig_mhd_yes }
                let collected = Unmanaged<Collected>.fromOpaque(cls).takeUnretainedValue()
                collected.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
                return rig_mhd_yes
            }, Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.pairs
    }

    /// 413 now, before the rest of the body is read: libmicrohttpd then closes the
    /// connection instead of reading a body nobody wants.
    func refuseBody(limit: Int) {
        let text = "{\"error\":\"request body larger than \(limit) bytes\",\"ok\":false}\n"
        _ = answer(status: 413, contentType: "application/json", data: Data(text.utf8), headers: [("Connection", "close")])
    }

    func answer(status: Int, contentType: String, data: Data, headers: [(String, String)]) -> MHD_Result {
        answered = true
        let response = data.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), rig_mhd_must_copy)
        }
        guard let response else { return rig_mhd_no }
        defer { MHD_destroy_response(response) }
        MHD_add_response_header(response, "Content-Type", contentType)
        MHD_add_response_header(response, "Cache-Control", "no-store")
        MHD_add_response_header(response, "X-Content-Type-Options", "nosniff")
        for (name, value) in headers { MHD_add_response_header(response, name, value) }
        return MHD_queue_response(connection, UInt32(status), response)
    }

    func answerStream(_ client: EventStreamClient) -> MHD_Result {
        answered = true
        let cls = Unmanaged.passRetained(client).toOpaque()
        let response = MHD_create_response_from_callback(rig_mhd_size_unknown, 16 * 1024, { cls, _, buffer, max in
            guard let cls, let buffer else { return rig_mhd_end_of_stream }
            return Unmanaged<EventStreamClient>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, max: max)
        }, cls, { cls in
            guard let cls else { return }
            Unmanaged<EventStreamClient>.fromOpaque(cls).release()
        })
        guard let response else {
            Unmanaged<EventStreamClient>.fromOpaque(cls).release()
            return rig_mhd_no
        }
        defer { MHD_destroy_response(response) }
        MHD_add_response_header(response, "Content-Type", "text/event-stream")
        MHD_add_response_header(response, "Cache-Control", "no-store")
        // A stream the rig ends (its phone revoked, its address over its share) frees its
        // connection's slot, instead of idling there without a timeout.
        MHD_add_response_header(response, "Connection", "close")
        // An event stream waits for news as long as it is open; the idle timeout is for
        // requests that never finish arriving.
        rig_mhd_set_timeout(connection, 0)
        return MHD_queue_response(connection, 200, response)
    }
}
