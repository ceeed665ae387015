/// Which side of the rig a display faces: the operator (inner) or the talent (outer).
enum DisplayRole: String, CaseIterable, Sendable, CustomStringConvertible {
    case inner, outer
    var description: String { rawValue }
}

/// A display backend, in the spirit of wlroots' backend interface: the DRM/KMS
/// backend and the headless one sit behind it, and the app never knows which it has.
/// Everything runs on the event loop thread.
protocol DisplayBackend: AnyObject {
    var delegate: (any DisplayBackendDelegate)? { get set }

    /// Opens the devices, modesets what is connected and registers with the loop.
    /// Missing connectors are not an error: they become available when they appear.
    func start() throws

    /// The app's state changed: ask the delegate for a frame on `role` at the next
    /// vblank the display can make. Cheap to call often; frames are coalesced.
    func requestFrame(_ role: DisplayRole)

    /// The operator's toggle (seed 001): a display shows content only when it is both
    /// available (the system's decision) and enabled (the operator's).
    func setEnabled(_ enabled: Bool, for role: DisplayRole)

    func status(of role: DisplayRole) -> DisplayStatus

    /// Leaves the screens clean: previous CRTC state restored or planes disabled.
    func shutdown()
}

/// The app side of a backend: draws frames and hears about availability.
protocol DisplayBackendDelegate: AnyObject {
    /// Draw the whole frame for `role` into `target`. Return false when nothing changed
    /// since the last frame on this display (nothing is flipped then), unless
    /// `target.mustDraw` says the buffer holds nothing worth showing.
    func drawFrame(for role: DisplayRole, into target: FrameTarget) -> Bool

    /// Availability, mode or enabled changed (not called for every flip).
    func displayStatusChanged(_ role: DisplayRole, _ status: DisplayStatus)

    /// A frame reached the glass: the kernel's vblank time and sequence. The app
    /// learns here what was really shown when (tap latency, camera latency) and asks
    /// for the next frame while something moves.
    func framePresented(_ role: DisplayRole, _ stamp: FlipStamp)

    /// Something the operator must fix (a misnamed connector); shown on the inner
    /// display when it is up, as well as in the journal.
    func displayProblem(_ problem: DisplaysError)
}

extension DisplayBackendDelegate {
    func framePresented(_ role: DisplayRole, _ stamp: FlipStamp) {}
    func displayProblem(_ problem: DisplaysError) {}
}

/// Where a frame goes: plain XRGB8888 memory the delegate writes directly, and the
/// time (CLOCK_MONOTONIC seconds) at which the frame is predicted to reach the glass.
struct FrameTarget {
    let width: Int
    let height: Int
    /// Bytes per row; at least width * 4.
    let stride: Int
    let pixels: UnsafeMutableRawPointer
    let presentationTime: Double
    /// The buffer is fresh (after a modeset or a hotplug): draw everything, and the
    /// frame is shown whatever the delegate returns.
    let mustDraw: Bool

    /// A row of pixels as 32-bit XRGB words.
    func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        (pixels + y * stride).assumingMemoryBound(to: UInt32.self)
    }
}
