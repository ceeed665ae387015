import Foundation
import Stage

/// Where a remote request goes, decided from the request and the token alone: no state,
/// no files, no replies. RemoteService and OSCServer act on it; the fuzz targets `http`
/// and `osc` (Sources/Fuzz) run exactly this code on arbitrary requests.
package enum RemoteRoute: Equatable {
    /// `/pair?token=`: right (set the cookie) or wrong.
    case pair(paired: Bool)
    /// No or a wrong token: JSON for the API and for anything but GET, a page otherwise.
    case unpaired(api: Bool)
    case methodNotAllowed
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

    /// An HTTP request.
    package static func of(_ request: HTTPRequest, token: PairingToken) -> RemoteRoute {
        if request.path == "/pair" { return .pair(paired: token.matches(request.query["token"])) }
        guard token.matches(PairingToken.presented(in: request)) else {
            return .unpaired(api: request.path.hasPrefix("/api/") || request.method != "GET")
        }
        guard request.method == "GET" || request.method == "POST" else { return .methodNotAllowed }
        if request.path == "/api/events" { return .events }
        guard request.path.hasPrefix("/api/") else { return .page(request.path) }
        let segments = request.path.dropFirst("/api/".count).split(separator: "/").map(String.init)
        guard let command = segments.first else { return .apiUsage }
        var fields: [String: JSONValue] = [:]
        if !request.body.isEmpty {
            guard case let .object(members)? = JSONValue.parse(request.body) else { return .badBody }
            fields = members
        }
        for (key, value) in request.query where key != "token" { fields[key] = .string(value) }
        return .command(RemoteCommandMap.request(command: command, arguments: segments.dropFirst().map { .string($0) },
                                                 fields: fields))
    }

    /// An OSC message, by its address and arguments (the token is the last one); nil when
    /// the token is missing or wrong.
    package static func of(path: String, arguments: [JSONValue], token: PairingToken) -> RemoteRoute? {
        var arguments = arguments
        guard token.matches(arguments.popLast()?.stringValue) else { return nil }
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 2, parts[0] == "rig" else { return .badAddress }
        return .command(RemoteCommandMap.request(command: parts[1], arguments: parts.dropFirst(2).map { .string($0) } + arguments,
                                                 fields: [:]))
    }

    /// A command's JSON as the control request it means, refused for what the network
    /// must not do.
    package static func controlRequest(_ json: JSONValue) -> Result<ControlRequest, Refusal> {
        switch ControlRequest.parse(Data(json.serialized.utf8)) {
        case let .failure(error): .failure(Refusal(description: error.description))
        case .success(.hang): .failure(Refusal(description: "hang is a local test aid, not offered over the network"))
        // A path on the box read as the microphone: a network client must not learn which
        // files exist from its errors, and rehearsing a follow is the operator's, at the box.
        case .success(.listen): .failure(Refusal(description: "listen reads a file on the rig: use rig ctl listen on the box"))
        case let .success(request): .success(request)
        }
    }

    package struct Refusal: Error, CustomStringConvertible { package let description: String }
}
