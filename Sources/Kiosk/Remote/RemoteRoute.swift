import Foundation
import Stage

/// Where a remote request goes, decided from the request, whether it proved a caller, and
/// the rig's own address alone: no state, no files, no replies. RemoteService and
/// OSCServer act on it; the fuzz targets `http` and `osc` (Sources/Fuzz) run exactly this
/// code on arbitrary requests.
package enum RemoteRoute: Equatable {
    /// `GET /pair?code=`: the page that asks for the phone's name (it changes nothing).
    case pairPage(code: String?)
    /// `POST /pair`: spend the code, pair the device.
    case pair(code: String?, name: String)
    /// A request from another site, or for another host name: 403 with the reason.
    case foreign(String)
    /// No or a wrong credential: JSON for the API and for anything but GET, a page otherwise.
    case unpaired(api: Bool)
    /// 405, with the reason.
    case methodNotAllowed(String)
    case events
    /// `/api/` with no command.
    case apiUsage
    /// A body that is not a JSON object.
    case badBody
    /// An API or OSC action as the control socket's JSON (not yet parsed by ControlRequest).
    case command(JSONValue)
    /// A file of the phone page (RemotePage decides whether it exists and may be served).
    case page(String)
    /// An OSC address outside `/rig/`.
    case badAddress

    /// An HTTP request; `signedIn` when it carried a paired device's cookie or an API key.
    package static func of(_ request: HTTPRequest, signedIn: Bool, site: RemoteSite) -> RemoteRoute {
        if let reason = site.refusal(request) { return .foreign(reason) }
        if request.path == "/pair" {
            switch request.method {
            case "GET": return .pairPage(code: request.query["code"])
            case "POST":
                let form = formFields(request)
                return .pair(code: form["code"], name: form["name"] ?? "")
            default: return .methodNotAllowed("/pair takes GET (the page) and POST (pairing)")
            }
        }
        guard signedIn else {
            return .unpaired(api: request.path.hasPrefix("/api/") || request.method != "GET")
        }
        guard request.method == "GET" || request.method == "POST" else {
            return .methodNotAllowed("only GET (to read) and POST (to change)")
        }
        if request.path == "/api/events" {
            return request.method == "GET" ? .events : .methodNotAllowed("the event stream is read with GET")
        }
        guard request.path.hasPrefix("/api/") else { return .page(request.path) }
        let segments = request.path.dropFirst("/api/".count).split(separator: "/").map(String.init)
        guard let command = segments.first else { return .apiUsage }
        var fields: [String: JSONValue] = [:]
        if !request.body.isEmpty {
            guard case let .object(members)? = JSONValue.parse(request.body) else { return .badBody }
            fields = members
        }
        for (key, value) in request.query { fields[key] = .string(value) }
        let json = RemoteCommandMap.request(command: command, arguments: segments.dropFirst().map { .string($0) },
                                            fields: fields)
        // A link or an image on any page can make a browser send a GET: it only reads.
        if request.method == "GET", !reads(json) {
            return .methodNotAllowed("\(command) changes the rig: send it with POST")
        }
        return .command(json)
    }

    /// An OSC message, by its address and arguments (the API key is the last one); nil
    /// when the key is missing or wrong.
    package static func of(path: String, arguments: [JSONValue], signedIn: (String?) -> Bool) -> RemoteRoute? {
        var arguments = arguments
        guard signedIn(arguments.popLast()?.stringValue) else { return nil }
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 2, parts[0] == "rig" else { return .badAddress }
        return .command(RemoteCommandMap.request(command: parts[1], arguments: parts.dropFirst(2).map { .string($0) } + arguments,
                                                 fields: [:]))
    }

    /// Whether a command only reads (status and lists): what GET may ask.
    package static func reads(_ json: JSONValue) -> Bool {
        let action = json["action"]?.stringValue
        switch json["cmd"]?.stringValue {
        case "status", "scripts", "folders", "clock", "script_text": return true
        case "clips": return action == nil || action == "list"
        case "game": return action == "status"
        case "marker": return action == "list" || (action == nil && json["to"] == nil)
        default: return false
        }
    }

    /// What OSC may do unless `[remote] osc_commands = "all"`: it is unauthenticated UDP
    /// by nature (its key travels in every packet), so transport, speed, markers and the
    /// game's send, stop and verdict, which a show controller needs and which lose nothing.
    package static func oscLimited(_ json: JSONValue) -> Bool {
        switch json["cmd"]?.stringValue {
        case "status", "play", "pause", "toggle", "stop", "faster", "slower", "speed", "marker": return true
        case "game": return ["send", "stop", "verdict"].contains(json["action"]?.stringValue ?? "")
        default: return false
        }
    }

    /// A command's JSON as the control request it means, refused for what the network
    /// must not do: consent is given by the person at the rig; recordings are deleted
    /// there; exports go only to the export folder or a mounted stick (`destinations`);
    /// the rig's files are not read; pairing and revoking are the operator's.
    package static func controlRequest(_ json: JSONValue, destinations: [String]) -> Result<ControlRequest, Refusal> {
        switch ControlRequest.parse(Data(json.serialized.utf8)) {
        case let .failure(error): return .failure(Refusal(description: error.description, forbidden: false))
        case .success(.hang): return .failure(Refusal(description: "hang is a local test aid, not offered over the network"))
        // A path on the box read as the microphone: a network client must not learn which
        // files exist from its errors, and rehearsing a follow is the operator's, at the box.
        case .success(.listen): return .failure(Refusal(description: "listen reads a file on the rig: use rig ctl listen on the box"))
        case .success(.remote):
            return .failure(Refusal(description: "phones are paired and revoked at the rig: its Settings screen, or rig ctl remote"))
        case let .success(.clips(action, _, _)) where action == "delete":
            return .failure(Refusal(description: "recordings are deleted at the rig (its Clips screen), not over the network"))
        case let .success(.clips(action, _, to?)) where action == "export" && !destinations.contains(normalized(to)):
            return .failure(Refusal(description: "over the network a clip is exported only to the export folder or a mounted USB stick: "
                + (destinations.isEmpty ? "none is there now" : destinations.joined(separator: ", "))))
        case let .success(.game(body)):
            switch GameControlRequest.parse(body) {
            case .success(.consent), .success(.playWithoutRecording):
                return .failure(Refusal(description: "consent is given by the player at the rig, on its console, never over the network"))
            case .success(.deleteMedia), .success(.end(deleteMedia: true)):
                return .failure(Refusal(description: "recordings are deleted at the rig (its console), not over the network"))
            default: return .success(.game(body))
            }
        case let .success(request): return .success(request)
        }
    }

    package struct Refusal: Error, CustomStringConvertible {
        package let description: String
        /// Refused because it came over the network (403), not because it is malformed (400).
        package var forbidden = true
    }

    private static func normalized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// `/pair`'s fields: a form (`code=…&name=…`, what the page posts), or a JSON object.
    private static func formFields(_ request: HTTPRequest) -> [String: String] {
        if case let .object(members)? = JSONValue.parse(request.body) {
            return members.compactMapValues(\.stringValue)
        }
        var fields: [String: String] = [:]
        for pair in String(decoding: request.body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }
}
