import Foundation

/// Listening on a thread of its own: microphone audio handed in from the capture thread
/// (any rate, mono 16-bit) is resampled to 16 kHz and decoded there, and each
/// hypothesis goes to `onHearing` on that thread (the kiosk posts it to its event
/// loop's mailbox). Decoding is blocking C work: it must not hold the event loop or a
/// thread of the shared pool. The recogniser is made on the thread and never leaves it.
public final class VoiceListener: Sendable {
    public typealias Report = @Sendable (Result<Hearing, ListeningError>) -> Void

    private let condition = NSCondition()
    // Guarded by `condition`; nonisolated(unsafe) because NSCondition is not a Mutex.
    nonisolated(unsafe) private var queue: [(samples: [Int16], rate: Int)] = []
    nonisolated(unsafe) private var stopping = false

    public init(model: ScriptLanguageModel, dictionary: PronouncingDictionary, language: String = "en",
                folder: URL, onHearing: @escaping Report) {
        let thread = Thread { [self] in
            let recognizer: SpeechRecognizer
            do throws(ListeningError) {
                recognizer = try SpeechRecognizer(model: model, dictionary: dictionary, language: language, folder: folder)
            } catch {
                return onHearing(.failure(error))
            }
            run(recognizer, onHearing)
        }
        thread.name = "rig-listen"
        thread.start()
    }

    /// Queues audio for decoding; returns at once.
    public func feed(_ samples: [Int16], rate: Int) {
        condition.lock()
        queue.append((samples, rate))
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread after what is queued (the recogniser is freed there).
    public func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func run(_ recognizer: SpeechRecognizer, _ onHearing: Report) {
        var resampler: Resampler?
        while true {
            condition.lock()
            while queue.isEmpty, !stopping { condition.wait() }
            if queue.isEmpty { condition.unlock(); return }
            let next = queue.removeFirst()
            condition.unlock()
            var samples = next.samples
            if next.rate != SpeechRecognizer.sampleRate {
                if resampler?.inputRate != next.rate {
                    resampler = try? Resampler(from: next.rate, to: SpeechRecognizer.sampleRate)
                }
                guard let converted = try? resampler?.convertPiece(samples) else {
                    onHearing(.failure(.decoderFailed("cannot resample \(next.rate) Hz to 16000 Hz")))
                    continue
                }
                samples = converted
            }
            if let hearing = recognizer.process(samples) { onHearing(.success(hearing)) }
        }
    }
}
