import Stage
/// One contact point of the outer touchscreen, in the outer display's pixels, with the
/// event's own CLOCK_MONOTONIC time in seconds (libinput's time, not the read time).
struct TouchSample: Sendable, Equatable {
    typealias Phase = TouchPhase

    var phase: Phase
    var slot: Int32
    var x: Double
    var y: Double
    var time: Double
}

/// Turns the outer touchscreen's contacts into taps: the talent's only control.
/// A tap is one finger, down and up within `maximumDuration`, moving less than
/// `maximumTravelFraction` of the display's diagonal. Everything else (long presses,
/// drags, a second finger, palms, touches while the outer content is not shown) ends
/// in a rejection, so the reason is visible in `rig input-probe` and in tests.
struct TapRecognizer: Sendable {
    struct Limits: Sendable, Equatable {
        var maximumDuration = 0.300
        var maximumTravelFraction = 0.02
        /// A tap starting this soon after the last accepted tap ended is a bounce or
        /// a double tap; either would undo the pause the first tap made.
        var debounce = 0.250
        /// This many fingers at once is a hand resting on the glass.
        var palmTouchCount = 3
    }

    /// A recognised tap. `time` is the moment the finger came down: the pause lands
    /// where the text was then, not where it had scrolled to by the finger's lift.
    struct Tap: Sendable, Equatable {
        var time: Double
        var x: Double
        var y: Double
    }

    enum Rejection: Sendable, Equatable {
        case heldTooLong(duration: Double)
        case moved(distance: Double)
        case secondFinger
        case palm
        case cancelled
        case notPresented
        case debounced(sinceLastTap: Double)
    }

    enum Outcome: Sendable, Equatable {
        case tap(Tap)
        case rejected(Rejection)
    }

    let limits: Limits
    private var diagonal: Double

    /// Whether the talent sees the outer content; set by the display side. A touch that
    /// begins or ends while nothing is shown does nothing.
    var outerTakesTaps = true {
        didSet { if !outerTakesTaps && gesture != nil { gesture?.spoiled = .notPresented } }
    }

    private struct Contact { var startX, startY, x, y: Double; var travel: Double }
    private struct Gesture {
        var startTime: Double
        var contacts: [Int32: Contact] = [:]
        var mostContacts = 0
        var spoiled: Rejection?
    }

    private var gesture: Gesture?
    private var lastTapEnd: Double?

    init(displayWidth: Double, displayHeight: Double, limits: Limits = Limits()) {
        self.limits = limits
        diagonal = (displayWidth * displayWidth + displayHeight * displayHeight).squareRoot()
    }

    /// The outer display changed size (a new mode or rotation); the travel limit follows.
    mutating func resize(displayWidth: Double, displayHeight: Double) {
        diagonal = (displayWidth * displayWidth + displayHeight * displayHeight).squareRoot()
    }

    /// Feeds one contact change; returns an outcome when the last finger of a gesture
    /// lifts (or the gesture is cancelled), nil while a gesture is still going on.
    mutating func handle(_ sample: TouchSample) -> Outcome? {
        switch sample.phase {
        case .down: return touchDown(sample)
        case .motion: return touchMotion(sample)
        case .up: return touchUp(sample)
        case .cancel: return touchCancel()
        }
    }

    private mutating func touchDown(_ sample: TouchSample) -> Outcome? {
        var current = gesture ?? Gesture(startTime: sample.time)
        current.contacts[sample.slot] = Contact(startX: sample.x, startY: sample.y,
                                                x: sample.x, y: sample.y, travel: 0)
        current.mostContacts = max(current.mostContacts, current.contacts.count)
        if current.mostContacts >= limits.palmTouchCount {
            current.spoiled = .palm
        } else if current.mostContacts > 1 && current.spoiled == nil {
            current.spoiled = .secondFinger
        }
        if !outerTakesTaps { current.spoiled = current.spoiled ?? .notPresented }
        gesture = current
        return nil
    }

    private mutating func touchMotion(_ sample: TouchSample) -> Outcome? {
        guard var contact = gesture?.contacts[sample.slot] else { return nil }
        contact.x = sample.x
        contact.y = sample.y
        // The farthest point from where the finger landed, so going out and back is a drag.
        let dx = sample.x - contact.startX, dy = sample.y - contact.startY
        contact.travel = max(contact.travel, (dx * dx + dy * dy).squareRoot())
        gesture?.contacts[sample.slot] = contact
        return nil
    }

    private mutating func touchUp(_ sample: TouchSample) -> Outcome? {
        guard var current = gesture, let contact = current.contacts.removeValue(forKey: sample.slot) else {
            return nil
        }
        if !current.contacts.isEmpty {
            gesture = current
            return nil
        }
        gesture = nil
        if let reason = current.spoiled { return .rejected(reason) }
        if !outerTakesTaps { return .rejected(.notPresented) }
        // Travel first: a slow swipe is a drag, whatever its length in time.
        if contact.travel >= limits.maximumTravelFraction * diagonal {
            return .rejected(.moved(distance: contact.travel))
        }
        let duration = sample.time - current.startTime
        if duration > limits.maximumDuration { return .rejected(.heldTooLong(duration: duration)) }
        if let lastEnd = lastTapEnd, current.startTime - lastEnd < limits.debounce {
            return .rejected(.debounced(sinceLastTap: current.startTime - lastEnd))
        }
        lastTapEnd = sample.time
        return .tap(Tap(time: current.startTime, x: contact.startX, y: contact.startY))
    }

    /// libinput cancels every touch of a device at once (a palm the kernel flagged,
    /// a device suspended by a VT switch); nothing from this gesture counts.
    private mutating func touchCancel() -> Outcome? {
        guard gesture != nil else { return nil }
        gesture = nil
        return .rejected(.cancelled)
    }
}
