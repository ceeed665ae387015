import Foundation
import Game

/// The game on the stage: the prompter and the game never run at the same time, and
/// the devices the game depends on are reported to it as they change.
extension RigStage {
    /// The game takes both displays: the prompter stops, the outer display shows the
    /// participant view from its next frame.
    package func openGame() {
        guard !game.isOpen else { return }
        controller.stop(at: now())
        participantViewShown = false
        game.open()
        console.show(.game)
        gameConditionsChanged()
        stateChanged()
    }

    /// Back to the prompter; an attempt running now is void, a retry offered.
    package func leaveGame() {
        guard game.isOpen else { return }
        game.leave()
        if console.state.screen.isGame { console.show(controller.script == nil ? .library : .prompter) }
        participantViewShown = false
        gameConditionsChanged()
        stateChanged()
    }

    /// What the game needs to know of the camera and the participant's display.
    func gameConditionsChanged() {
        let outer = displays[.outer]
        let conditions = RigConditions(
            // The camera's own identity (a camera that reports none is "camera").
            cameraID: settings.cameraEnabled ? (camera.identity ?? "camera") : nil,
            cameraStreaming: camera.live && camera.frame != nil && camera.state?.hasPrefix("streaming") == true,
            outerEnabled: outer?.enabled ?? false, outerAvailable: outer?.available ?? false,
            participantViewShown: game.isOpen && participantViewShown && (outer?.showsContent ?? false),
            participantTouch: participantTouch)
        game.rigChanged(conditions)
    }
}
