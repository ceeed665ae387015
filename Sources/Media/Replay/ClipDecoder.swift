import CFFmpeg
import Foundation

/// Decodes a clip for replay on a thread of its own, so the loop and the displays
/// never wait for FFmpeg. The loop says how far into the clip it wants pictures
/// (`want(through:)`, the replay's position plus a short lead); the thread decodes
/// up to there and then waits, so memory stays at a few pictures whatever the
/// clip's length, and a paused replay decodes nothing. The sound streams the same
/// way, in pieces of about 21 ms, `soundLead` beyond the pictures wanted (each
/// stream with its own demuxer, so neither waits on how the file interleaves them):
/// a long take starts at once instead of after its whole soundtrack. What is ready
/// is collected with `take()` after `onReady` says so.
public final class ClipDecoder: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `condition`.
    /// What `take()` hands over since its last call.
    public struct Delivery: Sendable {
        public var pictures: [ReplayPicture] = []
        /// Pieces of the sound at the output's rate, in order, joining without gaps.
        public var sound: [ReplaySound] = []
        /// Every picture of the clip has been handed over.
        public var ended = false
        /// The last piece of sound has been handed over (or the clip has none).
        public var soundEnded = false
        public var failure: MediaError?

        public init(pictures: [ReplayPicture] = [], sound: [ReplaySound] = [], ended: Bool = false,
                    soundEnded: Bool = false, failure: MediaError? = nil) {
            self.pictures = pictures
            self.sound = sound
            self.ended = ended
            self.soundEnded = soundEnded
            self.failure = failure
        }
    }

    /// Clip seconds of sound decoded beyond the pictures wanted. With the stage's 0.5 s
    /// picture lead, sound is decoded a second ahead of the position: more than the
    /// output's 250 ms buffer and a busy loop turn, and a second of mono at 48 kHz
    /// is 96 kB however long the take.
    public static let soundLead = 0.5

    public let path: String
    private let condition = NSCondition()
    private var wanted = -Double.infinity
    private var delivery = Delivery()
    private var stopping = false
    private var running = true
    private var holding: Double?
    private var idle = false
    private let onReady: @Sendable () -> Void

    /// Starts decoding `path` (its sound too when `sound` is true, resampled to
    /// `soundRate` when given, on this thread rather than the loop). `onReady` runs on
    /// the decoder's thread whenever something can be taken.
    public init(path: String, sound: Bool, soundRate: Int? = nil, onReady: @escaping @Sendable () -> Void) {
        self.path = path
        self.onReady = onReady
        let thread = Thread { [self] in
            run(sound: sound, rate: soundRate)
            condition.lock()
            running = false
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "rig-replay-decoder"
        thread.start()
    }

    /// Pictures with times up to `time` (clip seconds) are wanted now, and sound up to
    /// `time + soundLead`.
    public func want(through time: Double) {
        condition.lock()
        defer { condition.unlock() }
        guard time > wanted else { return }
        wanted = time
        // Until the thread has looked at the new bound, it holds nothing known.
        holding = nil
        idle = false
        condition.broadcast()
    }

    public func take() -> Delivery {
        condition.lock()
        defer { condition.unlock() }
        let taken = delivery
        delivery = Delivery()
        return taken
    }

    /// The time of the decoded picture the thread holds back until it is wanted, while
    /// it waits with nothing else due; nil while it decodes (or before it starts).
    /// Tests wait for this instead of sleeping.
    public var holdingPictureAt: Double? {
        condition.lock()
        defer { condition.unlock() }
        return holding
    }

    /// The thread waits with nothing due (everything wanted is handed over), or has
    /// ended. Tests wait for this instead of sleeping.
    public var isIdle: Bool {
        condition.lock()
        defer { condition.unlock() }
        return idle || !running
    }

    /// Ends the thread soon; never waits for it (the loop calls this).
    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// For tests and shutdown: waits up to `seconds` for the thread to end.
    public func waitUntilStopped(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while running {
            if !condition.wait(until: deadline) { return !running }
        }
        return true
    }

    deinit { stop() }

    // MARK: the thread

    private func run(sound: Bool, rate: Int?) {
        do throws(MediaError) {
            let pictures = try ReplayPictureStream(path: path)
            let sounds = sound ? try ReplaySoundStream.open(path, rate: rate) : nil
            var picture = try pictures.next()
            var piece = try sounds?.next()
            if picture == nil { hand { $0.ended = true } }
            if piece == nil { hand { $0.soundEnded = true } }
            while picture != nil || piece != nil {
                guard let due = waitUntilDue(picture: picture?.time, sound: piece?.startTime) else { return }
                if due.picture, let shown = picture {
                    picture = try pictures.next()
                    let last = picture == nil
                    hand { $0.pictures.append(shown); $0.ended = last }
                }
                if due.sound, let heard = piece {
                    piece = try sounds?.next()
                    let last = piece == nil
                    hand { $0.sound.append(heard); $0.soundEnded = last }
                }
            }
        } catch {
            hand { $0.failure = error }
        }
    }

    private func hand(_ change: (inout Delivery) -> Void) {
        condition.lock()
        change(&delivery)
        condition.unlock()
        onReady()
    }

    /// Waits until the held picture or sound piece is wanted; nil when told to stop.
    private func waitUntilDue(picture: Double?, sound: Double?) -> (picture: Bool, sound: Bool)? {
        condition.lock()
        defer {
            holding = nil
            idle = false
            condition.unlock()
        }
        while !stopping {
            let pictureDue = picture.map { $0 <= wanted } ?? false
            let soundDue = sound.map { $0 <= wanted + Self.soundLead } ?? false
            if pictureDue || soundDue { return (pictureDue, soundDue) }
            holding = picture
            idle = true
            condition.wait()
        }
        return nil
    }
}
