/// What the displays show of a take: the countdown before it, or that it records.
/// `PrompterTakes` keeps it; the scenes draw it upright over everything.
package enum TakeIndicator: Equatable, Sendable {
    case none
    /// Counting down to the recording's start (CLOCK_MONOTONIC seconds).
    case countdown(endsAt: Double)
    case recording

    /// What a frame presented at `time` shows: the countdown's whole seconds left (3, 2, 1).
    package func shown(at time: Double) -> TakeShown {
        switch self {
        case .none: .none
        case .recording: .recording
        case let .countdown(endsAt):
            endsAt > time ? .countdown(max(1, Int((endsAt - time).rounded(.up)))) : .none
        }
    }

    package var isActive: Bool { self != .none }
}

/// One frame's view of the take: equal values draw equal pixels.
package enum TakeShown: Equatable, Sendable {
    case none
    case countdown(Int)
    case recording
}
