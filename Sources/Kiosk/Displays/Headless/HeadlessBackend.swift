import Stage

/// Displays of given sizes in memory, behind the same interface as DRM: for tests,
/// `rig snapshot` and machines with no displays. Flips "complete" on a vblank grid of
/// the given refresh on the loop's clock, so pacing behaves as on a real display.
final class HeadlessBackend: DisplayBackend {
    weak var delegate: (any DisplayBackendDelegate)?

    /// A display's pixels: what it shows (`front`) and what the next frame is drawn into.
    private struct Buffers {
        var front: HeadlessFramebuffer
        var back: HeadlessFramebuffer
    }

    private let loop: EventLoop
    private let mode: [DisplayRole: VideoMode]
    /// The configured connector names, so a headless rendering reads as the rig's.
    private let connectors: [DisplayRole: String]
    private var heads: [DisplayRole: GridPacedHead] = [:]
    private var buffers: [DisplayRole: Buffers] = [:]

    init(sizes: [DisplayRole: (width: Int, height: Int)], refreshMillihertz: Int = 60_000,
         connectors: [DisplayRole: String] = [:], loop: EventLoop) {
        self.loop = loop
        self.connectors = connectors
        var mode: [DisplayRole: VideoMode] = [:]
        for (role, size) in sizes {
            mode[role] = VideoMode(width: size.width, height: size.height, refreshMillihertz: refreshMillihertz)
        }
        self.mode = mode
    }

    func start() throws {
        for role in DisplayRole.allCases where mode[role] != nil { connect(role) }
    }

    /// Simulated hotplug: the display appears (and is "modeset").
    func connect(_ role: DisplayRole) {
        guard let mode = mode[role], heads[role]?.status.available != true else { return }
        buffers[role] = Buffers(front: HeadlessFramebuffer(width: mode.width, height: mode.height),
                                back: HeadlessFramebuffer(width: mode.width, height: mode.height))
        let head = heads[role] ?? GridPacedHead(role: role, status: DisplayStatus(connector: connectorName(role)),
                                                loop: loop, owner: self)
        heads[role] = head
        head.connect(mode: mode)
        delegate?.displayStatusChanged(role, head.status)
    }

    /// Simulated unplug: the display becomes unavailable; the other is untouched.
    func simulateUnplug(_ role: DisplayRole) { disconnect(role) }

    func disconnect(_ role: DisplayRole) {
        guard let head = heads[role], head.status.available else { return }
        head.disconnect()
        delegate?.displayStatusChanged(role, head.status)
    }

    private func connectorName(_ role: DisplayRole) -> String {
        connectors[role].flatMap { $0 == DisplayConfiguration.automatic ? nil : $0 } ?? "headless-\(role)"
    }

    func requestFrame(_ role: DisplayRole) {
        heads[role]?.requestFrame()
    }

    func setEnabled(_ enabled: Bool, for role: DisplayRole) {
        guard let head = heads[role], head.setEnabled(enabled) else { return }
        delegate?.displayStatusChanged(role, head.status)
    }

    func status(of role: DisplayRole) -> DisplayStatus {
        heads[role]?.status ?? DisplayStatus(connector: connectorName(role))
    }

    func shutdown() {
        for head in heads.values { head.halt() }
        for role in buffers.keys { buffers[role]?.front.clear() }
    }

    /// True when the display shows its latest frame: nothing asked for, composing or
    /// waiting for its flip. Tests poll for this instead of sleeping.
    func isSettled(_ role: DisplayRole) -> Bool {
        heads[role]?.isSettled ?? true
    }

    /// What the display shows now (the last completed flip).
    func screen(_ role: DisplayRole) -> HeadlessFramebuffer? { buffers[role]?.front }

    func shownImagePPM(_ role: DisplayRole) -> [UInt8]? { screen(role)?.ppm() }
}

extension HeadlessBackend: GridPacedHeadOwner {
    func drawBuffer(for role: DisplayRole) -> HeadlessFramebuffer? { buffers[role]?.back }

    func drawFrame(for role: DisplayRole, into target: FrameTarget) -> Bool {
        delegate?.drawFrame(for: role, into: target) ?? false
    }

    /// Memory "shows" a frame at the vblank it was made for.
    func show(_ role: DisplayRole, target: Double) -> Double? { target }

    func submitted(_ role: DisplayRole) {}

    func presented(_ role: DisplayRole, _ stamp: FlipStamp) {
        if var pair = buffers[role] {
            swap(&pair.front, &pair.back)
            buffers[role] = pair
        }
        delegate?.framePresented(role, stamp)
    }
}
