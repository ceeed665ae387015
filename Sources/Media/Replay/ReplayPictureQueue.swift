/// The pictures a replay has been handed, oldest first, and which one a frame shows:
/// the newest whose time has come at the frame's clip position. Pictures already
/// passed are dropped, so the queue holds only what the decoder sent ahead.
public struct ReplayPictureQueue: Sendable {
    private var pending: [ReplayPicture] = []
    /// The picture the last frame showed.
    public private(set) var shown: ReplayPicture?
    /// Pictures that were passed over without ever being shown (a frame came late).
    public private(set) var skipped = 0

    public init() {}

    public var count: Int { pending.count }
    /// The newest picture handed in (to know how far ahead the decoder is).
    public var newestTime: Double? { pending.last?.time ?? shown?.time }

    public mutating func append(_ picture: ReplayPicture) {
        if let last = pending.last ?? shown, picture.time <= last.time { return }
        pending.append(picture)
    }

    /// The picture for clip position `position`: the newest with time ≤ position,
    /// or the one shown before when none has come yet.
    @discardableResult
    public mutating func picture(at position: Double) -> ReplayPicture? {
        // A microsecond of slack: a picture stamped exactly at a frame's position is due.
        guard let due = pending.lastIndex(where: { $0.time <= position + 1e-6 }) else { return shown }
        skipped += due
        shown = pending[due]
        pending.removeFirst(due + 1)
        return shown
    }

    public mutating func removeAll() {
        pending.removeAll()
        shown = nil
    }
}
