import Foundation
import Game
import Media
import Prompter
import Render

/// The one path by which both displays draw, and what follows each flip. A frame is
/// composed from the stage's parts as values (`InnerView`, `CameraView`,
/// `PrompterShown`) through the one `SceneRenderer`; its report is in flight until the
/// display's flip says it reached the glass, and is then what the display shows. The
/// cue's handshake rides on both ends: a cue's frame may be drawn ahead, and its flip is
/// the cue's onset.
final class DisplayFrames {
    /// The frame each display was last given, until its flip says it reached the glass.
    private(set) var inFlight: [DisplayRole: FrameReport] = [:]
    /// What each display shows now: the report of its frame last flipped.
    private(set) var shown: [DisplayRole: FrameReport] = [:]
    /// The cue's frames on their way to the participant's display.
    private var cues = CueHandshake()
    private unowned let stage: RigStage

    init(stage: RigStage) { self.stage = stage }

    /// The game asked for a cue: an outer frame still in flight is flipped first, and the
    /// cue's timing line says so.
    func cueRequested() {
        if let flight = inFlight[.outer] { cues.waitingForFlight(drawnFor: flight.time) }
    }

    /// Draws `role`'s frame for `presentationTime` into `target` if anything it shows
    /// changed, and reports what it showed.
    func frame(_ role: DisplayRole, at presentationTime: Double, into target: FrameTarget) -> FrameReport {
        let game = stage.game, renderer = stage.renderer, controller = stage.controller
        if role == .inner, cues.holdsInner(game, mustDraw: target.mustDraw) {
            // Not drawn, but a fresh buffer (a modeset) may sit where an old one was.
            if target.mustDraw { renderer.forgetHeldFrames(role) }
            return FrameReport(role: role, time: presentationTime)
        }
        if let card = stage.selfTests.card(role) {
            let transform = role == .outer ? controller.settings.textTransform : .identity
            let report = renderer.drawSelfTestCard(role, card, transform: transform, at: presentationTime, into: target)
            if report.changed || target.mustDraw { inFlight[role] = report }
            return report
        }
        let started = stage.now()
        let size = PixelSize(width: target.width, height: target.height)
        if role == .outer { renderer.applyDrawingSettings(controller.settings, outerSize: size) }
        let inner = role == .inner ? innerView(at: presentationTime) : nil
        var view = cameraView(at: presentationTime)
        var upcoming: (generation: UInt64, cue: UInt64, overlay: CameraOverlay)?
        if target.preparing {
            // Only the cue's frame is drawn ahead: as the participant view will be from
            // its request, over the camera picture held since the speech's end report.
            guard role == .outer, let next = game.upcomingCue else { return FrameReport(role: role, time: presentationTime) }
            upcoming = next
            view.overlay = next.overlay
        }
        let prompter = PrompterShown(controller, at: presentationTime, layoutGeneration: renderer.layoutGeneration,
                                     role: role, consoleScreen: stage.console.state.screen)
        let drawn = renderer.draw(role, at: presentationTime, into: target, prompter: prompter,
                                  outerShowsContent: stage.displays[.outer]?.showsContent ?? false, camera: view,
                                  inner: inner, take: stage.take)
        if let build = drawn.console { stage.console.shown(build) }
        let report = cues.drawn(drawn, role: role, upcoming: upcoming, showsCue: view.overlay.cue != nil, game: game,
                                composeStarted: started, now: stage.now())
        // A frame drawn ahead for a cue is flipped at the cue's request, not now.
        if report.preparedCue != nil { return report }
        if report.changed || target.mustDraw {
            inFlight[role] = report
        } else if stage.isAnimating(role, at: presentationTime) {
            // Moving text that has not moved a whole pixel yet (the start of a ramp)
            // gives no new frame and so no flip to chain on: ask for the next vblank.
            stage.frameWanted(role)
        }
        return report
    }

    /// What the console shows beyond the prompter, as values at `time`.
    private func innerView(at time: Double) -> InnerView {
        let console = stage.console
        var inner = InnerView(
            console: console.state, listing: console.state.screen == .library ? console.listing : .empty,
            outer: stage.displays[.outer], cameraState: stage.camera.state,
            game: console.state.screen.isGame ? stage.game.consoleView(at: time) : .none,
            timers: TimersShown(stage.timers(at: time)), follow: stage.follow.shown, dialogScript: console.dialogScript)
        if console.state.screen == .settings {
            inner.remote = stage.remoteAccess?.shown
            inner.controllers = stage.handControllers.shown
        }
        if console.state.screen == .clips {
            let replayNow = stage.clips.shown(at: time)
            inner.clips = InnerClips(input: stage.clips.listing, replay: replayNow?.shown, picture: replayNow?.picture)
        }
        return inner
    }

    /// The talent's camera view: the framing check's, or the participant view of the
    /// game (its overlay from the session alone, so nothing of an unsent pick shows).
    private func cameraView(at time: Double) -> CameraView {
        let game = stage.game, framing = stage.controller.mode == .framing, selfTest = stage.selfTests.showsCamera
        let overlay = game.isOpen ? game.participantOverlay(at: time)
            : stage.stageCamera.prompterOverlay(framing: framing, selfTest: selfTest, take: stage.take.shown(at: stage.now()))
        var view = stage.stageCamera.view(overlay: overlay, mirror: stage.settings.cameraMirror,
                                          onOuter: game.isOpen || framing || selfTest, inGame: game.isOpen)
        // The cue's frame does not wait for a camera frame's conversion: it shows the
        // picture already converted, and the next frame catches up.
        view.holdPreview = game.holdsCameraForCue
        return view
    }

    /// `role`'s frame reached the glass at `stamp`: what it showed is now shown, and each
    /// part that waits on the glass hears of it (the self-test, the camera's latency, the
    /// game's cue and participant view, the tap's latency, a hand controller's lag).
    func presented(_ role: DisplayRole, _ stamp: FlipStamp) {
        let shown = inFlight.removeValue(forKey: role)
        if let report = shown {
            self.shown[role] = report
        }
        stage.selfTests.run?.flipped(role, stamp, tapsShown: role == .outer ? shown?.selfTestCard?.taps : nil)
        if role == .outer {
            outerPresented(shown, stamp)
        }
        // A frame drawn for a time the motion had not ended by but flipped after it had
        // (its compose ran late: a loaded host, a sanitizer) shows the text short of
        // where it came to rest: one more frame shows that, and nothing asks otherwise.
        let drawnFor = shown?.time ?? stamp.time
        if stage.isAnimating(role, at: stamp.time) || (drawnFor < stamp.time && stage.isAnimating(role, at: drawnFor)) {
            stage.frameWanted(role)
        } else if role == .outer {
            // Forty turns: a quarter turn at sixteen phases makes and fills a window per
            // phase (32 turns) before its pieces; with twelve turns, half the windows
            // were still empty at play and each phase's first frame filled its own (a
            // screen of text painted in a frame: 1080p, 5-6 frames late in the first
            // half second of `rig bench --case kiosk-smoothness:1920x1080:rot90`).
            stage.prepareAheadWhileIdle(pieces: 40)
        }
    }

    private func outerPresented(_ shown: FrameReport?, _ stamp: FlipStamp) {
        let game = stage.game
        if let frame = shown?.cameraFrame {
            stage.output.cameraFrameShown(frame, at: stamp.time)
            stage.selfTests.run?.cameraFrameShown(captured: frame.timestamp, at: stamp.time)
        }
        if cues.releasesInner(game) { stage.frameWanted(.inner) }
        if shown?.showsGame == true, !stage.seat.viewShown {
            stage.seat.viewShown = true
            stage.gameConditionsChanged()
        }
        cues.outerFlipped(shown, at: stamp.time, game: game, handled: stage.now())
        game.outerFlipped(stamp, cue: shown?.cue)
        stage.tapLatency.outerFrameFlipped(at: stamp.time, showsTapEffect: shown?.showsTapPause ?? false)
        stage.handControllers.outerFlipped(at: stamp.time, drawnFor: shown?.time ?? stamp.time)
    }
}
