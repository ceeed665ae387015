import Foundation

/// Where a frame with the participant view was presented.
public enum PresentationSurface: String, Codable, Sendable {
    /// The participant's own display: the only one whose flip counts as the cue shown.
    case outer
    /// The participant view drawn on the inner display for the host. Never acknowledges.
    case preview
}

/// The rig's answer to the seed's `onAppear`: a cue counts as shown only when the outer
/// display reports the page flip of a frame containing it. That flip's time is the
/// cue's onset, and the response window starts there. Without one within 0.5 s of the
/// request the attempt is void (no penalty): the participant may never have seen it.
public struct CueHandshake: Equatable, Sendable {
    public static let acknowledgementLimit = 0.5

    public enum Outcome: Equatable, Sendable {
        case acknowledged(onset: Double)
        /// A preview, or another request's id: changes nothing.
        case ignored
        /// Presented, but `acknowledgementLimit` or more after the request: the attempt is void.
        case late
    }

    public let id: UInt64
    public let requestedAt: Double
    public private(set) var onset: Double?
    public private(set) var frame: UInt64?

    public init(id: UInt64, requestedAt: Double) {
        self.id = id
        self.requestedAt = requestedAt
    }

    /// The moment the request times out.
    public var deadline: Double { requestedAt + Self.acknowledgementLimit }

    public var isAcknowledged: Bool { onset != nil }

    /// A presentation report. Only the first outer flip of this id whose time lies in
    /// [request, deadline) acknowledges; later reports of the same id are ignored.
    public mutating func presented(id: UInt64, on surface: PresentationSurface, flipTime: Double,
                                   frame: UInt64) -> Outcome {
        guard id == self.id, surface == .outer, onset == nil, flipTime >= requestedAt else { return .ignored }
        guard flipTime < deadline else { return .late }
        onset = flipTime
        self.frame = frame
        return .acknowledged(onset: flipTime)
    }

    /// No acknowledgement by `now`, and the limit has passed.
    public func hasTimedOut(at now: Double) -> Bool {
        onset == nil && now >= deadline
    }
}
