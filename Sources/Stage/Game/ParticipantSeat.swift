import Game

/// The participant's side of the rig as the game needs to know it: whether the
/// participant view has reached their display's glass, whether that display has a
/// touchscreen (their tap is Stop), and the camera that films them.
struct ParticipantSeat {
    /// A participant view has reached the outer glass since it was last turned on.
    var viewShown = false
    /// The participant's display has a touchscreen now.
    var touch = false

    /// The rig as the game's Send checks it. `cameraEnabled` is rig.toml's; a camera
    /// that reports no identity of its own is "camera".
    func conditions(camera: CameraInput, cameraEnabled: Bool, outer: DisplayStatus?, gameOpen: Bool) -> RigConditions {
        RigConditions(
            cameraID: cameraEnabled ? (camera.identity ?? "camera") : nil,
            cameraStreaming: camera.live && camera.frame != nil && camera.state?.hasPrefix("streaming") == true,
            outerEnabled: outer?.enabled ?? false, outerAvailable: outer?.available ?? false,
            participantViewShown: gameOpen && viewShown && (outer?.showsContent ?? false),
            participantTouch: touch)
    }
}
