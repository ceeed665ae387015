import Foundation
import Media
import Prompter
import Stage

/// Voice follow's ears on the kiosk: the script's language model built on a worker
/// thread, a `VoiceListener` (its own thread) fed the room microphone from the capture
/// ring, or a WAV file paced on the loop's clock (`rig ctl listen`), every tick; its
/// hearings and the loop time of the audio's start go to the stage. Lives on the loop.
final class KioskListening: ListeningPort {
    static let feedInterval = 0.2

    private let loop: EventLoop
    private let folder: URL
    /// Where microphone audio comes from besides a file: the capture ring and its next frame.
    var captureRing: AudioCaptureRing?
    private var nextCaptureFrame: Int64?
    /// Hands the stage what was heard, and that the recogniser is ready.
    var heard: (Result<FollowHearing, ListeningError>) -> Void = { _ in }
    var ready: (ScriptWords) -> Void = { _ in }
    private var listener: VoiceListener?
    /// The words the newest start asked for; a listener made for older ones is stopped.
    private var words: ScriptWords?
    private var timer: EventLoop.TimerID?
    /// Audio seconds handed to the listener so far, and the loop time of audio time 0.
    private var fedSeconds = 0.0
    private var audioOrigin: Double?
    private var file: (samples: [Int16], rate: Int, next: Int, startedAt: Double)?
    /// The WAV file being heard: its path, loop time 0 and length (kept until stop).
    private var fileHeard: (path: String, startedAt: Double, seconds: Double)?

    init(loop: EventLoop, folder: URL) {
        self.loop = loop
        self.folder = folder
    }

    deinit { listener?.stop() }

    func refusal(language: String) -> String? {
        let base = language.lowercased().split(separator: "-").first.map(String.init) ?? ""
        guard SpeechRecognizer.languages.contains(base) else { return ListeningError.unsupportedLanguage(language).description }
        guard FileManager.default.fileExists(atPath: SpeechRecognizer.modelFolder) else {
            return ListeningError.modelMissing(path: SpeechRecognizer.modelFolder).description
        }
        return nil
    }

    func start(words: ScriptWords, language: String) {
        stop()
        self.words = words
        nextCaptureFrame = captureRing?.latest.map { $0.firstFrame + Int64($0.samples.count) }
        let base = language.lowercased().split(separator: "-").first.map(String.init) ?? ""
        let handle = LoopBound(self)
        let mailbox = loop.mailbox
        let folder = folder
        let sentences = words.sentences
        // Reading the CMU dictionary and writing the model take long enough to hold the loop.
        let worker = Thread {
            do throws(ListeningError) {
                let model = try ScriptLanguageModel(sentences: sentences)
                let dictionary = try PronouncingDictionary.installed(words: model.vocabulary)
                let listener = VoiceListener(model: model, dictionary: dictionary, language: base, folder: folder) { result in
                    mailbox.post { handle.value?.received(result, for: words) }
                }
                mailbox.post { handle.value?.made(listener, for: words) }
            } catch {
                mailbox.post { handle.value?.failedToMake(error, for: words) }
            }
        }
        worker.name = "rig-follow-model"
        worker.start()
        scheduleFeed()
    }

    func stop() {
        words = nil
        listener?.stop()
        listener = nil
        if let timer { loop.cancel(timer) }
        timer = nil
        file = nil
        fileHeard = nil
        fedSeconds = 0
        audioOrigin = nil
    }

    func listen(path: String) -> Result<(seconds: Double, started: Double), ListeningRefusal> {
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(ListeningRefusal("cannot read \(path)")) }
        guard let wav = WAVFile.read(data), wav.channels >= 1, wav.sampleRate > 0 else {
            return .failure(ListeningRefusal("\(path) is not a 16-bit PCM WAV file"))
        }
        let mono = wav.channels == 1 ? wav.samples
            : stride(from: 0, to: wav.samples.count - wav.channels + 1, by: wav.channels).map { wav.samples[$0] }
        let now = loop.clock()
        let seconds = Double(mono.count) / Double(wav.sampleRate)
        file = (mono, wav.sampleRate, 0, now)
        fileHeard = (path, now, seconds)
        return .success((seconds, now))
    }

    var fileStatus: JSONValue {
        fileHeard.map { ["path": .string($0.path), "started": .number($0.startedAt), "seconds": .number($0.seconds)] } ?? .null
    }

    var heardUpTo: Double? { audioOrigin.map { $0 + fedSeconds } }

    // MARK: on the loop

    private func made(_ made: VoiceListener, for words: ScriptWords) {
        guard words == self.words, listener == nil else { return made.stop() }
        listener = made
        ready(words)
    }

    private func failedToMake(_ error: ListeningError, for words: ScriptWords) {
        guard words == self.words else { return }
        heard(.failure(error))
    }

    private func received(_ result: Result<Hearing, ListeningError>, for words: ScriptWords) {
        guard words == self.words else { return }
        heard(result.map { FollowHearing($0, origin: audioOrigin) })
    }

    private func scheduleFeed() {
        guard timer == nil, words != nil else { return }
        timer = loop.addTimer(at: loop.clock() + Self.feedInterval) { [weak self] in
            guard let self else { return }
            self.timer = nil
            if let listener = self.listener { self.feed(listener, now: self.loop.clock()) }
            self.scheduleFeed()
        }
    }

    /// Hands the listener what arrived since the last tick: the file's due samples, or
    /// the capture ring's new periods.
    private func feed(_ listener: VoiceListener, now: Double) {
        if var playing = file {
            let due = min(playing.samples.count, Int((now - playing.startedAt) * Double(playing.rate)))
            if due > playing.next {
                give(listener, Array(playing.samples[playing.next..<due]), rate: playing.rate,
                     startingAt: playing.startedAt + Double(playing.next) / Double(playing.rate))
                playing.next = due
            }
            file = due >= playing.samples.count ? nil : playing
            if file == nil { KioskLog.info("voice follow: the WAV file has been heard to its end") }
            // The room microphone's pieces meanwhile are not heard later.
            nextCaptureFrame = captureRing?.latest.map { $0.firstFrame + Int64($0.samples.count) }
            return
        }
        guard let ring = captureRing else { return }
        let read = ring.read(from: nextCaptureFrame ?? 0)
        for period in read.periods {
            give(listener, period.samples, rate: period.sampleRate, startingAt: period.time)
            nextCaptureFrame = period.firstFrame + Int64(period.samples.count)
        }
    }

    private func give(_ listener: VoiceListener, _ samples: [Int16], rate: Int, startingAt time: Double) {
        guard !samples.isEmpty, rate > 0 else { return }
        audioOrigin = time - fedSeconds
        fedSeconds += Double(samples.count) / Double(rate)
        listener.feed(samples, rate: rate)
    }
}
