/// What the stage asks of the rig around it: frames drawn, the outer display turned on
/// or off, a camera frame's presentation passed on, a line for systemd. The composition
/// root (the kiosk) gives one; a stage on a manual clock (`rig snapshot`, `rig bench`,
/// tests) keeps `StageOutputNone` or a test's own. Called on the stage's thread.
package protocol StageOutput: AnyObject {
    /// Something `role` shows changed: draw it at the display's next vblank.
    func frameWanted(_ role: DisplayRole)
    /// As `frameWanted`, composed as soon as the display's buffer is free (the cue's
    /// frame: its flip is measured).
    func frameWantedNow(_ role: DisplayRole)
    /// Draw `role`'s frame for this presentation time now and hold it; the display flips
    /// it when a later frame finds it unchanged (the cue's frame, drawn ahead).
    func prepareFrame(_ role: DisplayRole, for time: Double)
    /// The operator turned the outer display on or off.
    func outerEnabledChanged(_ on: Bool)
    /// A camera frame reached the outer glass at this flip time.
    func cameraFrameShown(_ frame: CameraFrame, at time: Double)
    /// One line of state for systemd's status.
    func statusLineChanged(_ line: String)
    /// What `rig ctl status` reports may have changed (transport, script, speed, mode,
    /// the displays, the game's phase): remote panels look now instead of polling.
    func liveStateChanged()
}

extension StageOutput {
    package func frameWantedNow(_ role: DisplayRole) { frameWanted(role) }
    package func prepareFrame(_ role: DisplayRole, for time: Double) {}
    package func outerEnabledChanged(_ on: Bool) {}
    package func cameraFrameShown(_ frame: CameraFrame, at time: Double) {}
    package func statusLineChanged(_ line: String) {}
    package func liveStateChanged() {}
}

/// A stage whose frames are taken when its driver wants them: nothing is asked of anyone.
package final class StageOutputNone: StageOutput {
    package init() {}
    package func frameWanted(_ role: DisplayRole) {}
}
