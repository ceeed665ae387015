import Foundation

/// The devices' state as the rig last reported it. Never saved: after a restart the
/// rig reports it afresh, so camera readiness is never restored from a file.
public struct RigConditions: Equatable, Sendable {
    /// The camera the game records from, or nil when none is selected.
    public var cameraID: String?
    /// Frames are arriving from that camera.
    public var cameraStreaming: Bool
    /// The host's on/off for the participant's display.
    public var outerEnabled: Bool
    /// The display is connected and has a mode.
    public var outerAvailable: Bool
    /// Its content has actually been shown: a page flip of the participant view has
    /// completed since it was enabled. Asking for a frame is not showing it.
    public var participantViewShown: Bool
    /// A touchscreen on the participant's display: their tap stops an attempt. Without
    /// one the game still plays, and the host is told the participant cannot stop it.
    public var participantTouch: Bool

    public init(cameraID: String? = nil, cameraStreaming: Bool = false, outerEnabled: Bool = false,
                outerAvailable: Bool = false, participantViewShown: Bool = false, participantTouch: Bool = false) {
        self.cameraID = cameraID
        self.cameraStreaming = cameraStreaming
        self.outerEnabled = outerEnabled
        self.outerAvailable = outerAvailable
        self.participantViewShown = participantViewShown
        self.participantTouch = participantTouch
    }

    /// What the rig reports before it knows anything.
    public static let unknown = RigConditions()

    /// What the devices lack for an attempt, in the dashboard's order: the camera for a
    /// recorded one, the participant's display showing the game for Visual S/Z.
    func sendBlockers(recording: Bool, visual: Bool) -> [SendBlocker] {
        var blockers: [SendBlocker] = []
        if recording {
            if cameraID == nil {
                blockers.append(.noCamera)
            } else if !cameraStreaming {
                blockers.append(.cameraNotStreaming)
            }
        }
        if visual {
            if !outerEnabled { blockers.append(.outerDisplayDisabled) }
            if !outerAvailable { blockers.append(.outerDisplayUnavailable) }
            if outerEnabled && outerAvailable && !participantViewShown { blockers.append(.outerDisplayNotPresenting) }
        }
        return blockers
    }
}
