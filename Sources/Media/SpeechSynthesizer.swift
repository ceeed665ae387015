import Foundation
import Synchronization

/// Text to speech with espeak-ng, the process's one way to it. Every call, from any
/// thread, goes through `shared` to the single `SpeechThread` (espeak-ng is not
/// thread-safe). Synthesis is complete before the clip is returned, so its duration
/// and word times are exact before anything plays.
///
/// Prepared clips are kept by (text, voice, rate): espeak-ng carries state from one
/// utterance to the next (measured here: the same sentence came out between 62,126
/// and 62,424 samples on successive calls in one process, the same sequence in every
/// process), so the cache is what makes an instruction's duration the same each time
/// it is spoken, as a prepared asset's should be.
public final class SpeechSynthesizer: Sendable {
    public static let shared = SpeechSynthesizer()
    /// espeak-ng's documented range, words per minute.
    public static let rates: ClosedRange<Int> = 80...450
    public static let normalRate = 175
    public static let defaultVoice = "en-us"
    /// Clips kept; a game round speaks a handful of instructions.
    static let cacheLimit = 64

    private let thread = SpeechThread()
    private let cache = Mutex<ClipCache>(ClipCache())

    private init() {}

    /// Synthesizes `text` (cleaned by `SpeechText` first); blocks the caller until
    /// done. `cached: false` always runs espeak-ng (for measuring it).
    public func synthesize(_ text: String, voice: String = defaultVoice, rate: Int = normalRate,
                           cached: Bool = true) throws(SpeechError) -> SpeechClip {
        let request = try SpeechText(text)
        let key = "\(voice)\u{1}\(rate)\u{1}\(request.text)"
        if cached, let clip = cache.withLock({ $0.clip(for: key) }) { return clip }
        let result = thread.perform { session in session.synthesize(request, voice: voice, rate: rate) }
        let clip = try result.get()
        cache.withLock { $0.store(clip, for: key) }
        return clip
    }

    /// The same, without blocking: `completion` runs on the speech thread (or at once,
    /// on the caller's, for bad text or a clip already made).
    public func synthesize(_ text: String, voice: String = defaultVoice, rate: Int = normalRate,
                           completion: @escaping @Sendable (Result<SpeechClip, SpeechError>) -> Void) {
        let request: SpeechText
        do { request = try SpeechText(text) } catch { return completion(.failure(error)) }
        let key = "\(voice)\u{1}\(rate)\u{1}\(request.text)"
        if let clip = cache.withLock({ $0.clip(for: key) }) { return completion(.success(clip)) }
        thread.submit { [self] session in
            let result = session.synthesize(request, voice: voice, rate: rate)
            if case let .success(clip) = result { cache.withLock { $0.store(clip, for: key) } }
            completion(result)
        }
    }

    /// The installed voices (empty when espeak-ng could not start).
    public func voices() -> [SpeechVoice] {
        thread.perform { session in session.voices() }
    }

    /// espeak-ng's output rate (22050 Hz), 0 when it could not start.
    public var sampleRate: Int { thread.perform { session in session.sampleRate } }
}

/// Clips by key, oldest dropped first past the limit.
private struct ClipCache {
    private var clips: [String: SpeechClip] = [:]
    private var order: [String] = []

    func clip(for key: String) -> SpeechClip? { clips[key] }

    mutating func store(_ clip: SpeechClip, for key: String) {
        if clips.updateValue(clip, forKey: key) == nil { order.append(key) }
        while order.count > SpeechSynthesizer.cacheLimit { clips[order.removeFirst()] = nil }
    }
}
