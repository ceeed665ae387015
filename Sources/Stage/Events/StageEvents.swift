import Foundation
import Game
import Media
import Prompter

/// The devices' events applied to the stage: the talent's tap, the operator's keys,
/// pointer and touches, the camera's frames, what the displays say of themselves, a
/// flip, and the reports of the threads that work for the stage. Control requests have
/// their own way in (`ControlRequests`), with a reply; events have none.
struct StageEvents {
    private let stage: RigStage

    init(stage: RigStage) { self.stage = stage }

    func apply(_ event: StageEvent) {
        // A self-test's cards hold both displays: it takes the taps and keys it measures.
        if stage.selfTests.takes(event) { return }
        let controller = stage.controller, console = stage.console, game = stage.game
        switch event {
        case .outerTap where game.isOpen:
            game.participantTapped()
        case let .outerTap(time):
            // The talent's stop works on a follower too: it takes the text over here.
            stage.followerRig?.operatorMoved()
            let wasPlaying = controller.engine.state(at: time) == .playing
            controller.tap(at: time)
            if wasPlaying { stage.tapLatency.tapAccepted(at: time) }
        case let .key(press):
            if console.handle(press) { return }
            // Held keys repeat; of the bound actions only speed changes follow a repeat.
            guard let action = press.action, !press.isRepeat || action.repeatsWhileHeld, !game.isOpen else { return }
            stage.handle(.key(action), at: press.time)
        case let .innerPointer(x, y, button, _):
            console.pointer(x: x, y: y, button: button)
        case let .innerTouch(phase, x, y, _):
            console.touch(phase: phase, x: x, y: y)
        case let .cameraFrame(frame):
            cameraArrived(frame, preview: nil)
        case let .cameraPreview(frame, preview):
            cameraArrived(frame, preview: preview)
        case let .camera(input):
            stage.stageCamera.changed(to: input)
            stage.gameConditionsChanged()
            stage.stateChanged()
        case let .display(role, status):
            displayChanged(role, status)
        case let .framePresented(role, stamp):
            stage.frames.presented(role, stamp)
        case .switchedAway:
            KioskLog.notice("switched away from the rig's console (VT switch)")
            if game.session?.phase.isCapturing == true { game.receive(.interrupt(.vtSwitch)) }
        case let .participantTouch(present):
            stage.seat.touch = present
            stage.gameConditionsChanged()
        case .libraryChanged:
            _ = controller.library?.refresh()
            console.libraryChanged()
            stage.stateChanged()
        case .clipsChanged:
            stage.clips.refresh()
        case .remoteAccessChanged:
            stage.frameWanted(.inner)
        case let .followListening(words):
            stage.follow.listenerStarted(for: words)
        case let .followHeard(result):
            stage.follow.received(result)
        case let .leadLink(report):
            stage.followerRig?.received(report)
        case let .replayDelivery(id, delivery):
            stage.clips.delivered(id: id, delivery)
        case let .problems(source, lines):
            stage.problems.set(lines, for: source)
        case let .firstRun(card):
            console.showFirstRun(card)
        case let .rigUpdate(card):
            // An offer never comes over a talent's reading, a take or a game.
            console.showRigUpdate(card, busy: stage.take != .none || game.isOpen
                                      || controller.engine.state(at: stage.now()) == .playing)
        case let .takeEnded(message):
            stage.takes.ended(message: message)
        case let .controller(event):
            stage.handControllers.handle(event, handledAt: stage.now(), steers: !game.isOpen)
        }
    }

    private func cameraArrived(_ frame: CameraFrame, preview: CameraPreviewPicture?) {
        stage.stageCamera.arrived(frame, preview: preview)
        stage.frameWanted(.inner)
        if stage.controller.mode == .framing || stage.game.isOpen || stage.selfTests.showsCamera {
            stage.frameWanted(.outer)
        }
        stage.gameConditionsChanged()
        stage.selfTests.run?.cameraFrameArrived()
    }

    /// A display's mode, connection or enabled flag changed: the text is laid out again
    /// for a new outer mode, and a participant view shown before must reach the glass again.
    private func displayChanged(_ role: DisplayRole, _ status: DisplayStatus) {
        let before = stage.displays[role]
        stage.displays[role] = status
        if role == .outer, before?.mode != status.mode, status.mode != nil { stage.relayout() }
        if role == .outer, status.showsContent != (before?.showsContent ?? false) { stage.seat.viewShown = false }
        stage.gameConditionsChanged()
        stage.stateChanged()
    }
}
