import Foundation
import Kiosk

/// Raw request bytes as the remote receives them after libmicrohttpd: the `http` fuzz
/// target's input is a whole HTTP/1.1 request (so seeds and crashes read as requests),
/// and this is the split libmicrohttpd makes before the rig's code sees it (request
/// line, percent-decoded path, query pairs with `+` as space, headers, cookies, body),
/// each value a C string (cut at the first NUL) as HTTPExchange reads it. It stands in
/// for libmicrohttpd, which is not what the target fuzzes; the rig's own parsing starts
/// at the HTTPRequest it makes (RemoteRoute, RemoteCommandMap, ControlRequest).
enum FuzzHTTPRequest {
    static let peer = SocketAddress(host: "127.0.0.1", port: 40000)

    static func split(_ data: Data, maxBodyBytes: Int = HTTPServer.Limits().maxBodyBytes) -> HTTPRequest? {
        let bytes = [UInt8](data)
        let (head, body) = headAndBody(bytes)
        var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: UInt8(ascii: " "))
        // libmicrohttpd answers a request line without a method and a URI itself.
        guard requestLine.count >= 2 else { return nil }
        let method = cString(requestLine[0])
        let uri = requestLine[1]
        let queryStart = uri.firstIndex(of: UInt8(ascii: "?"))
        let path = cString(unescape(uri[..<(queryStart ?? uri.endIndex)], plus: false))
        var query: [String: String] = [:]
        if let queryStart {
            for pair in uri[(queryStart + 1)...].split(separator: UInt8(ascii: "&")) {
                let equals = pair.firstIndex(of: UInt8(ascii: "="))
                let key = cString(unescape(pair[..<(equals ?? pair.endIndex)], plus: true))
                let value = equals.map { cString(unescape(pair[($0 + 1)...], plus: true)) } ?? ""
                query[key] = value
            }
        }
        var headers: [String: String] = [:]
        var cookies: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = cString(line[..<colon]).lowercased()
            let value = cString(line[(colon + 1)...]).trimmingCharacters(in: .whitespaces)
            headers[name] = value
            if name == "cookie" {
                for item in value.split(separator: ";") {
                    let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    let key = parts[0].trimmingCharacters(in: .whitespaces)
                    cookies[key] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
                }
            }
        }
        return HTTPRequest(method: method, path: path, query: query, headers: headers, cookies: cookies,
                           body: Data(body.prefix(maxBodyBytes)), peer: peer)
    }

    private static func headAndBody(_ bytes: [UInt8]) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) {
        let crlf: [UInt8] = Array("\r\n\r\n".utf8), lf: [UInt8] = Array("\n\n".utf8)
        for separator in [crlf, lf] where bytes.count >= separator.count {
            for start in 0...(bytes.count - separator.count) where bytes[start..<(start + separator.count)].elementsEqual(separator) {
                return (bytes[..<start], bytes[(start + separator.count)...])
            }
        }
        return (bytes[...], [])
    }

    /// `%XX` decoded, anything else (a lone `%`, bad hex) kept, as MHD_http_unescape does.
    private static func unescape(_ text: ArraySlice<UInt8>, plus: Bool) -> [UInt8] {
        var out: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: "%"), index + 2 < text.endIndex,
               let high = hex(text[index + 1]), let low = hex(text[index + 2]) {
                out.append(high << 4 | low)
                index += 3
                continue
            }
            out.append(plus && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return out
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// What `String(cString:)` makes of a C string holding these bytes.
    private static func cString<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
