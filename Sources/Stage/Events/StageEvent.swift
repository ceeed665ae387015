import Media
import Prompter

/// What happens to the stage, each at its own CLOCK_MONOTONIC time: the input side's
/// keys, pointer and touches already routed to a display, the camera's frames and
/// states, and what the display side says of its displays. Control requests come
/// through `RigStage.handle(_:)` with a reply; timers come from the stage's scheduler.
package enum StageEvent {
    /// The recordings changed (a take ended, an export moved on): the Clips screen reads
    /// them again from the store.
    case clipsChanged
    /// A phone paired or was revoked, a pairing code opened or ran out: the console's
    /// Remote panel is drawn again.
    case remoteAccessChanged
    /// The first-run card's facts, at the first start of a rig written from the disk
    /// image and again when they change (an address came): the console shows the card.
    case firstRun(FirstRunCard)
    /// The update dialog's next card, or nil to take an offer back.
    case rigUpdate(RigUpdateCard?)
    /// Decoded pictures (or the end, or a failure) for the replay of clip `id`.
    case replayDelivery(id: String, ClipDecoder.Delivery)
    /// A key pressed (or repeating) on an operator keyboard, clicker or pedal.
    case key(KeyPress)
    /// The pointer on the inner display moved, or a button went down or up there.
    case innerPointer(x: Double, y: Double, button: PointerButton?, time: Double)
    /// A finger on the inner touchscreen.
    case innerTouch(phase: TouchPhase, x: Double, y: Double, time: Double)
    /// A tap the tap recognizer accepted on the outer touchscreen: when the finger came down.
    case outerTap(time: Double)
    /// The camera's newest frame.
    case cameraFrame(CameraFrame)
    /// The camera's newest frame with the outer display's preview of it, converted off
    /// the loop (nil when the preview thread made none: the outer frame converts it).
    case cameraPreview(CameraFrame, CameraPreviewPicture?)
    /// The camera started, stopped or failed: what the stage shows of it now.
    case camera(CameraInput)
    /// A display's availability, mode or enabled flag changed.
    case display(DisplayRole, DisplayStatus)
    /// The seat was disabled (a VT switch): the displays and input go next. Said first,
    /// so a running attempt is void for this reason, not as a lost display.
    case switchedAway
    /// A touchscreen on the participant's display came or went (or the window backend's
    /// outer window, whose clicks are taps).
    case participantTouch(Bool)
    /// A frame of `role` reached the glass at the kernel's vblank time and sequence.
    case framePresented(DisplayRole, FlipStamp)
    /// Files came, went or changed in the scripts folder.
    case libraryChanged
    /// Voice follow's recogniser is ready to hear these words.
    case followListening(ScriptWords)
    /// Voice follow heard something (or its recogniser failed).
    case followHeard(Result<FollowHearing, ListeningError>)
    /// A follower rig's link to its lead reported (its state, script, clock, or loss).
    case leadLink(LeadLinkReport)
    /// What is wrong with one part of the rig now, for the operator's banner (none:
    /// it is fine again): a camera that cannot open, a sound card unplugged, rig.toml's errors.
    case problems(ProblemSource, [String])
    /// The recorder ended the prompter take (after Stop, or by itself: why, if so).
    case takeEnded(message: String?)
    /// A hand controller came, went or moved (its buttons come as keys).
    case controller(ControllerEvent)

    /// One line for `source`, or none.
    package static func problem(_ source: ProblemSource, _ line: String?) -> StageEvent {
        .problems(source, line.map { [$0] } ?? [])
    }
}

/// The camera as the stage shows it: its newest frame, what the preview says when
/// there is no picture, and its state in a few words for the console.
package struct CameraInput {
    package var frame: CameraFrame?
    /// "Camera unavailable" and the like, shown instead of (or over) the picture.
    package var message: String?
    /// "streaming", "unavailable: …"; nil when no camera is configured.
    package var state: String?
    /// A capture is running (it may still fail); without one the preview only says why.
    package var live: Bool
    /// Which camera streams (name, bus, serial), nil while none does: another camera
    /// in the same place interrupts a recorded attempt.
    package var identity: String?

    package init(frame: CameraFrame?, message: String?, state: String?, live: Bool, identity: String? = nil) {
        self.frame = frame
        self.message = message
        self.state = state
        self.live = live
        self.identity = identity
    }

    /// No camera configured.
    package static let none = CameraInput(frame: nil, message: nil, state: nil, live: false)
    /// A camera configured that could not be opened.
    package static let unavailable = CameraInput(frame: nil, message: "Camera unavailable", state: "unavailable", live: false)
}
