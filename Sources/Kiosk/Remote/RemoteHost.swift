import Foundation
import Stage

/// The network remote as the kiosk keeps it: started on the address `[remote] bind`
/// names, and with "auto" or an interface's name, started again on the new address when
/// DHCP gives the interface another one (or first gives it one). Paired phones stay
/// paired across a move (they are in the state folder); a new pairing code opens.
final class RemoteHost {
    /// How often a named interface's address is looked at again (5 s on the rig).
    private let lookEvery: Double

    private let config: RigConfig
    private let loop: EventLoop
    private unowned let stage: RigStage
    private let resolve: (String) -> String?
    /// The service now (nil while there is no address), for the kiosk's status and output.
    private(set) var service: RemoteService?
    var onService: (RemoteService?) -> Void = { _ in }
    private var boundTo: String?
    private var looked = false
    private var watch: EventLoop.TimerID?

    init(config: RigConfig, loop: EventLoop, stage: RigStage, lookEvery: Double = 5,
         resolve: @escaping (String) -> String? = RemoteBindAddress.resolve) {
        self.lookEvery = lookEvery
        self.config = config
        self.loop = loop
        self.stage = stage
        self.resolve = resolve
    }

    deinit { if let watch { loop.cancel(watch) } }

    func start() {
        follow()
    }

    func stop() {
        if let watch { loop.cancel(watch) }
        watch = nil
        service = nil
        onService(nil)
    }

    /// Starts the remote on the address the bind names now, if that changed.
    private func follow() {
        let bind = config.remote.bind
        let address = resolve(bind)
        if !looked || address != boundTo {
            looked = true
            boundTo = address
            service = nil
            onService(nil)
            if let address { start(on: address) } else {
                stage.handle(.problem(.remote, "remote control: waiting for an address on "
                    + (bind == "auto" ? "the network (no interface has one yet)" : bind)))
            }
        }
        guard RemoteBindAddress.isNamed(bind) else { return }
        watch = loop.addTimer(at: loop.clock() + lookEvery) { [weak self] in self?.follow() }
    }

    private func start(on address: String) {
        var remote = config.remote
        // The peers: as written, or what the named bind allows (the allow list of an
        // address that moves is decided by the bind, not by this lease).
        let allow = remote.allowList
        remote.bind = address
        do {
            let stage = stage
            let exportFolder = config.recording.exportFolder
            let service = try RemoteService(config: remote, allow: allow, stateFolder: config.state.dir, loop: loop,
                                            status: { [unowned stage] in stage.status(at: stage.now()) },
                                            exportDestinations: {
                                                RemovableMounts.destinations(exportFolder: exportFolder).map(\.path)
                                            },
                                            handle: { [unowned stage] in stage.handle($0) })
            self.service = service
            stage.remoteAccess = service
            service.onAccessChanged = { [unowned stage, unowned service] in
                stage.handle(.remoteAccessChanged)
                stage.handle(.problem(.remote.detail("devices"), service.access.devices.problem))
            }
            service.openPairing()
            onService(service)
            stage.handle(.problem(.remote, "remote control on \(service.address): pair a phone on the Settings screen"))
            stage.handle(.problem(.remote.detail("devices"), service.access.devices.problem))
            stage.handle(.remoteAccessChanged)
            KioskLog.notice("remote control on http://\(service.http.address)"
                            + (service.osc.map { ", OSC on udp \($0.address)" } ?? "")
                            + "; \(service.access.devices.devices.count) paired, API keys: "
                            + service.shown.apiKeys.map { "\($0.name) (\($0.fingerprint))" }.joined(separator: ", "))
        } catch {
            stage.handle(.problem(.remote, "remote control: \(error)"))
        }
    }
}
