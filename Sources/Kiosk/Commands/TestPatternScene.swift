import Stage

/// A stand-in scene for `rig run` until the app's scenes are wired: colour bars that
/// tell the heads apart (vertical on the inner display, horizontal on the outer), a
/// frame and a moving bar whose position is a pure function of the presentation time,
/// so a head that comes back shows the current position. Paused, it never changes and
/// costs no frames.
final class TestPatternScene: DisplayBackendDelegate {
    weak var backend: (any DisplayBackend)?
    var paused: Bool
    /// Where the bar sits while paused, as a fraction of the height.
    var pausedPosition: Double
    var onStatusChange: ((DisplayRole, DisplayStatus) -> Void)?

    static let colours: [UInt32] = [0xC0C0C0, 0xC0C000, 0x00C0C0, 0x00C000, 0xC000C0, 0xC00000, 0x0000C0, 0x101010]

    init(paused: Bool, pausedPosition: Double = 0.25) {
        self.paused = paused
        self.pausedPosition = pausedPosition
    }

    func drawFrame(for role: DisplayRole, into target: FrameTarget) -> Bool {
        if !paused { backend?.requestFrame(role) }
        guard !paused || target.mustDraw else { return false }
        let position = paused ? pausedPosition : (target.presentationTime * 0.25).truncatingRemainder(dividingBy: 1)
        Self.draw(role: role, barPosition: position, into: target)
        return true
    }

    func displayStatusChanged(_ role: DisplayRole, _ status: DisplayStatus) {
        onStatusChange?(role, status)
    }

    static func draw(role: DisplayRole, barPosition: Double, into target: FrameTarget) {
        let w = target.width, h = target.height
        let bar = max(4, h / 16)
        let barTop = Int(Double(h - bar) * barPosition)
        var patternRow = [UInt32](repeating: 0, count: w)
        for x in 0..<w { patternRow[x] = colours[x * colours.count / w] }
        for y in 0..<h {
            let row = target.row(y)
            if y < 8 || y >= h - 8 || (y >= barTop && y < barTop + bar) {
                row.update(repeating: 0xFFFFFF, count: w)
            } else if role == .inner {
                patternRow.withUnsafeBufferPointer { source in
                    if let base = source.baseAddress { row.update(from: base, count: w) }
                }
            } else {
                row.update(repeating: colours[y * colours.count / h], count: w)
            }
            if y >= 8 && y < h - 8 {
                // Side borders, and a block marking the role: top-left inner, top-right outer.
                row.update(repeating: 0xFFFFFF, count: 8)
                (row + w - 8).update(repeating: 0xFFFFFF, count: 8)
                if y < h / 5 {
                    let blockX = role == .inner ? w / 20 : w - w / 20 - w / 8
                    (row + blockX).update(repeating: 0x000000, count: w / 8)
                }
            }
        }
    }
}
