import Foundation
import Stage

/// `[remote]`: the network remote, started when rig.toml turns it on. It calls the
/// same `handle(_:)` as the control socket. The pairing address is shown on the inner
/// display as one line of the problem banner (and in the journal).
extension KioskApp {
    func startRemote() {
        guard config.remote.enabled else { return }
        do {
            let service = try RemoteService(config: config.remote, loop: loop,
                                            status: { [unowned self] in status(at: loop.clock()) },
                                            handle: { [unowned self] in handle($0) })
            remote = service
            stage.handle(.problem(.remote, "remote control: pair at \(service.pairingURL)"))
            KioskLog.notice("remote control on http://\(service.http.address)"
                            + (service.osc.map { ", OSC on udp \($0.address)" } ?? ""))
        } catch {
            stage.handle(.problem(.remote, "remote control: \(error)"))
        }
    }

    /// The status report with the remote's addresses (never its token).
    func withRemoteStatus(_ status: JSONValue) -> JSONValue {
        guard case var .object(fields) = status else { return status }
        fields["remote"] = remote?.statusJSON ?? .null
        return .object(fields)
    }
}
