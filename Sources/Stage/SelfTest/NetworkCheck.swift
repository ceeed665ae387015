import JSON

/// The network remote as a phone would reach it.
package struct NetworkFacts: Equatable, Sendable {
    package var enabled: Bool
    /// "http://192.168.1.20:8080", nil while the remote has no address.
    package var address: String?
    /// What the remote waits for or failed with.
    package var problem: String?
    /// The addresses it accepts requests from ([remote] allow), or "the local network".
    package var reachableFrom: String
    /// The self-test opened a one-time pairing code (its QR is on the inner display).
    package var pairingOpened = false

    package init(enabled: Bool, address: String?, problem: String?, reachableFrom: String) {
        self.enabled = enabled
        self.address = address
        self.problem = problem
        self.reachableFrom = reachableFrom
    }

    package var step: SelfTestStep {
        let json: [String: JSONValue] = ["enabled": .bool(enabled), "address": .optional(address),
                                         "reachable_from": .string(reachableFrom)]
        guard enabled else {
            return SelfTestStep(id: "network", title: "Network remote", verdict: .ok,
                                lines: ["the remote is off ([remote] enabled = false): no phone or computer can steer the rig"],
                                figures: json)
        }
        guard let address, problem == nil else {
            return SelfTestStep(id: "network", title: "Network remote", verdict: .problem,
                                lines: ["the remote is on but has no address: \(problem ?? "none yet")"],
                                fix: "Connect the rig to the network ([remote] bind names the interface), then run the self-test again.",
                                figures: json)
        }
        var figures = json
        figures["pairing_opened"] = .bool(pairingOpened)
        return SelfTestStep(id: "network", title: "Network remote", verdict: .ok,
                            lines: ["the remote answers at \(address), from \(reachableFrom)",
                                    pairingOpened ? "a phone pairs with the QR code on the inner display, for five minutes"
                                        : "pair a phone from Settings on the console: its QR code opens the pairing page"],
                            figures: figures)
    }
}
