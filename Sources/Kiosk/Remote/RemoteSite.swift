import Foundation

/// The rig's own web address, for what a browser sends along: the `Host` a request names
/// must be the rig's (an address, not a name some other site's DNS points here: DNS
/// rebinding), and an `Origin` or `Referer`, when a browser sends one, must be the rig's
/// own page. A page on another site can make a phone's browser send requests to the rig;
/// this is how they are told apart. Programs (Companion, curl) send neither header.
package struct RemoteSite: Sendable {
    /// The bound address; nil when bound to every address (any numeric host is the rig's).
    let host: String?
    let port: Int

    package init(host: String?, port: Int) {
        self.host = host
        self.port = port
    }

    /// Why a request is not for this rig's page, or nil when it is.
    package func refusal(_ request: HTTPRequest) -> String? {
        if let given = request.headers["host"], !owns(authority: given) {
            return "this is the rig at port \(port); the request was for \(given.prefix(80))"
        }
        if let origin = request.headers["origin"] {
            guard origin.hasPrefix("http://"), owns(authority: String(origin.dropFirst("http://".count))) else {
                return "requests from another site's page are refused (Origin \(origin.prefix(80)))"
            }
        } else if let referer = request.headers["referer"] {
            let rest = referer.hasPrefix("http://") ? String(referer.dropFirst("http://".count)) : ""
            guard owns(authority: String(rest.prefix { $0 != "/" })) else {
                return "requests from another site's page are refused (Referer from elsewhere)"
            }
        }
        return nil
    }

    /// `authority` is "HOST:PORT" (or "[V6]:PORT") naming this rig.
    func owns(authority: String) -> Bool {
        let hostPart: Substring, portPart: Substring
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let rest = authority[authority.index(after: close)...]
            portPart = rest.hasPrefix(":") ? rest.dropFirst() : ""
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            hostPart = parts[0]
            portPart = parts.count > 1 ? parts[1] : ""
        }
        // No port is the scheme's default, or a client that left it out: the address decides.
        guard portPart.isEmpty || Int(portPart) == port else { return false }
        let name = String(hostPart)
        if name == "localhost" { return true }
        guard SocketAddress(host: name, port: 0) != nil else { return false }
        guard let host else { return true }
        return SocketAddress(host: name, port: 0)?.host == SocketAddress(host: host, port: 0)?.host
            || (AddressPrefix(parsing: name)?.isLoopback == true && AddressPrefix(parsing: host)?.isLoopback == true)
    }
}
