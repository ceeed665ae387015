import CALSA
import Glibc
import Prompter
import Stage

/// MIDI hand controllers through the ALSA sequencer (issue 40): an expression pedal, a
/// fader or a knob sending a controller change (`[controllers.midi] cc`) is the speed,
/// and notes are keys (`Note0`…`Note127` in `[keys]`). The kiosk is a sequencer client
/// with one input port; it subscribes to every readable port whose client or port name
/// holds `[controllers.midi] port` ("any": all but the kernel's Midi Through), and to
/// the system's announcements, so a port plugged in later is followed and one unplugged
/// counts as a controller removed. Read on the loop, never blocking.
final class MIDIControllers {
    private let loop: EventLoop
    private let config: RigConfig.Controllers.MIDI
    private let handler: (StageEvent) -> Void
    private let bindings: KeyBindings
    private let map: SpeedMap
    private var sequencer: OpaquePointer?
    private var port: Int32 = -1
    private var readers: [EventLoop.SourceID] = []
    /// The ports subscribed to, by "client:port", with what the stage knows of each.
    private var sources: [String: ControllerReading] = [:]
    /// Why MIDI is not read (no sequencer device), for the journal and `rig devices`.
    private(set) var problem: String?

    init(loop: EventLoop, config: RigConfig.Controllers.MIDI, keys: KeyBindings, handler: @escaping (StageEvent) -> Void) {
        self.loop = loop
        self.config = config
        self.handler = handler
        bindings = keys
        map = Self.map(config)
        guard config.enabled else { return }
        var handle: OpaquePointer?
        let status = snd_seq_open(&handle, "default", SND_SEQ_OPEN_INPUT, SND_SEQ_NONBLOCK)
        guard status >= 0, let handle else {
            problem = "no ALSA sequencer (\(String(cString: snd_strerror(status)))): MIDI controllers are not read"
            KioskLog.info("controllers: \(problem ?? "")")
            return
        }
        sequencer = handle
        snd_seq_set_client_name(handle, "rig")
        port = snd_seq_create_simple_port(handle, "rig controllers",
                                          UInt32(SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE),
                                          UInt32(SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION))
        // Ports starting and ending: client 0's announce port.
        _ = snd_seq_connect_from(handle, port, Int32(SND_SEQ_CLIENT_SYSTEM), Int32(SND_SEQ_PORT_SYSTEM_ANNOUNCE))
        for (client, port, name) in Self.ports(handle) { subscribe(client: client, port: port, name: name) }
        let count = snd_seq_poll_descriptors_count(handle, Int16(POLLIN))
        var descriptors = [pollfd](repeating: pollfd(), count: Int(max(count, 0)))
        let filled = snd_seq_poll_descriptors(handle, &descriptors, UInt32(descriptors.count), Int16(POLLIN))
        for descriptor in descriptors.prefix(Int(filled)) {
            readers.append(loop.addReader(fd: descriptor.fd, name: "midi") { [weak self] in self?.drain() })
        }
    }

    deinit {
        for reader in readers { loop.remove(reader) }
        if let sequencer { snd_seq_close(sequencer) }
    }

    /// The speed map of `[controllers.midi]`: 0…127 with the control's rest where it says.
    static func map(_ config: RigConfig.Controllers.MIDI) -> SpeedMap {
        SpeedMap(reverseEnd: 0, forwardEnd: 127, rest: Double(config.rest), neutral: config.neutral,
                 forwardMax: config.forwardMax, reverseMax: config.rest > 0 ? config.reverseMax : 0,
                 curve: config.curve, steps: config.steps)
    }

    /// The readable ports of other clients: (client, port, "client name: port name").
    static func ports(_ handle: OpaquePointer) -> [(Int32, Int32, String)] {
        var clientInfo: OpaquePointer?, portInfo: OpaquePointer?
        snd_seq_client_info_malloc(&clientInfo)
        snd_seq_port_info_malloc(&portInfo)
        defer { snd_seq_client_info_free(clientInfo); snd_seq_port_info_free(portInfo) }
        var found: [(Int32, Int32, String)] = []
        let own = snd_seq_client_id(handle)
        snd_seq_client_info_set_client(clientInfo, -1)
        while snd_seq_query_next_client(handle, clientInfo) >= 0 {
            let client = snd_seq_client_info_get_client(clientInfo)
            guard client != own, client != Int32(SND_SEQ_CLIENT_SYSTEM) else { continue }
            let clientName = String(cString: snd_seq_client_info_get_name(clientInfo))
            snd_seq_port_info_set_client(portInfo, client)
            snd_seq_port_info_set_port(portInfo, -1)
            while snd_seq_query_next_port(handle, portInfo) >= 0 {
                let caps = snd_seq_port_info_get_capability(portInfo)
                let wanted = UInt32(SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ)
                guard caps & wanted == wanted else { continue }
                let portName = String(cString: snd_seq_port_info_get_name(portInfo))
                found.append((client, snd_seq_port_info_get_port(portInfo), "\(clientName): \(portName)"))
            }
        }
        return found
    }

    /// Whether `[controllers.midi] port` picks the port named `name` ("client: port").
    static func matches(_ name: String, port wanted: String) -> Bool {
        if wanted.lowercased() == "any" { return !name.hasPrefix("Midi Through") }
        return name.localizedCaseInsensitiveContains(wanted)
    }

    private func subscribe(client: Int32, port source: Int32, name: String) {
        let id = "midi \(client):\(source)"
        guard let sequencer, sources[id] == nil, Self.matches(name, port: config.port),
              snd_seq_connect_from(sequencer, port, client, source) >= 0 else { return }
        let reading = ControllerReading(id: id, name: name, kind: .midi, axis: "CC \(config.cc) 0…127", map: map.summary,
                                        raw: Double(config.rest))
        sources[id] = reading
        handler(.controller(.added(reading)))
    }

    private func drain() {
        guard let sequencer else { return }
        var event: UnsafeMutablePointer<snd_seq_event_t>?
        while snd_seq_event_input(sequencer, &event) >= 0, let current = event?.pointee {
            handle(current)
        }
    }

    private func handle(_ event: snd_seq_event_t) {
        let time = loop.clock()
        let id = "midi \(event.source.client):\(event.source.port)"
        switch Int32(event.type) {
        case Int32(SND_SEQ_EVENT_CONTROLLER.rawValue):
            guard event.data.control.param == UInt32(config.cc), var reading = sources[id] else { return }
            let raw = Double(min(max(event.data.control.value, 0), 127))
            (reading.raw, reading.travel, reading.speed) = (raw, map.travel(at: raw), map.speed(at: raw))
            sources[id] = reading
            handler(.controller(.moved(reading, time: time)))
        case Int32(SND_SEQ_EVENT_NOTEON.rawValue) where event.data.note.velocity > 0:
            guard sources[id] != nil else { return }
            let code = KeyNames.midiNoteBase + UInt32(event.data.note.note)
            handler(.key(KeyPress(code: code, action: bindings.action(forKey: code), time: time)))
        case Int32(SND_SEQ_EVENT_PORT_START.rawValue):
            guard let sequencer else { return }
            let address = event.data.addr
            for (client, port, name) in Self.ports(sequencer)
            where client == Int32(address.client) && port == Int32(address.port) {
                subscribe(client: client, port: port, name: name)
            }
        case Int32(SND_SEQ_EVENT_PORT_EXIT.rawValue):
            let gone = "midi \(event.data.addr.client):\(event.data.addr.port)"
            if sources.removeValue(forKey: gone) != nil { handler(.controller(.removed(id: gone, time: time))) }
        case Int32(SND_SEQ_EVENT_CLIENT_EXIT.rawValue):
            let prefix = "midi \(event.data.addr.client):"
            for gone in sources.keys.filter({ $0.hasPrefix(prefix) }) {
                sources[gone] = nil
                handler(.controller(.removed(id: gone, time: time)))
            }
        default:
            break
        }
    }

    /// `rig devices`: the ports a kiosk would follow now.
    static func describe(config: RigConfig.Controllers.MIDI) -> [String] {
        guard config.enabled else { return ["MIDI: off ([controllers.midi] enabled = false)"] }
        var handle: OpaquePointer?
        let status = snd_seq_open(&handle, "default", SND_SEQ_OPEN_INPUT, SND_SEQ_NONBLOCK)
        guard status >= 0, let handle else { return ["MIDI: no ALSA sequencer (\(String(cString: snd_strerror(status))))"] }
        defer { snd_seq_close(handle) }
        let ports = ports(handle).filter { matches($0.2, port: config.port) }
        guard !ports.isEmpty else { return ["MIDI: no port matching \"\(config.port)\""] }
        return ports.map { "midi \($0.0):\($0.1)\t\($0.2)\tmidi\tCC \(config.cc) 0…127" }
    }
}
