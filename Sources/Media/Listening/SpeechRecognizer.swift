import CPocketSphinx
import Foundation

/// pocketsphinx decoding 16 kHz mono 16-bit speech against a script's language model.
/// Owns its decoder and configuration; deinit frees them. Not thread-safe: one owner
/// thread (`VoiceListener`) feeds it.
///
/// Continuous: an utterance stays open while the voice-activity detector hears speech;
/// the first silence after speech ends it (final words) and a new one starts. Every
/// `process` returns the hypothesis so far with word times, so follow need not wait
/// for a breath.
public final class SpeechRecognizer {
    public static let sampleRate = 16000
    public static let modelFolder = "/usr/share/pocketsphinx/model/en-us"
    public static let languages = ["en"]

    private let decoder: OpaquePointer
    private let config: OpaquePointer
    private var utterance = 0
    private var utteranceStart = 0
    private var samplesIn = 0
    private var heardSpeech = false

    /// `folder`: where the ARPA model and dictionary files are written (a private temp folder).
    public init(model: ScriptLanguageModel, dictionary: PronouncingDictionary, language: String = "en",
                folder: URL) throws(ListeningError) {
        let base = language.lowercased().split(separator: "-").first.map(String.init) ?? ""
        guard Self.languages.contains(base) else { throw .unsupportedLanguage(language) }
        let acoustic = Self.modelFolder + "/en-us"
        guard FileManager.default.fileExists(atPath: acoustic + "/mdef") else { throw .modelMissing(path: acoustic) }
        let lmPath = folder.appendingPathComponent("script.arpa").path
        let dictPath = folder.appendingPathComponent("script.dict").path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try model.arpa.write(toFile: lmPath, atomically: true, encoding: .utf8)
            try dictionary.text.write(toFile: dictPath, atomically: true, encoding: .utf8)
        } catch {
            throw .cannotWriteModel(path: folder.path, reason: "\(error)")
        }
        // pocketsphinx logs every setting to stderr by default: the kiosk's log is no place for that.
        err_set_logfp(nil)
        let arguments = ["rig", "-hmm", acoustic, "-lm", lmPath, "-dict", dictPath,
                         "-samprate", "\(Self.sampleRate)", "-logfn", "/dev/null"]
        var cStrings = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        let parsed = cStrings.withUnsafeMutableBufferPointer { buffer in
            cmd_ln_parse_r(nil, ps_args(), Int32(buffer.count), buffer.baseAddress, 1)
        }
        guard let parsed else { throw .decoderFailed("its configuration was refused") }
        guard let made = ps_init(parsed) else {
            cmd_ln_free_r(parsed)
            throw .decoderFailed("the model in \(Self.modelFolder) did not load")
        }
        config = parsed
        decoder = made
        guard ps_start_utt(decoder) >= 0 else { throw .decoderFailed("could not start listening") }
    }

    deinit {
        ps_end_utt(decoder)
        ps_free(decoder)
        cmd_ln_free_r(config)
    }

    public var audioTime: Double { Double(samplesIn) / Double(Self.sampleRate) }

    /// Decodes `samples` (16 kHz mono); returns the utterance's words so far, or nil
    /// while nothing has been heard since the last utterance ended.
    public func process(_ samples: [Int16]) -> Hearing? {
        guard !samples.isEmpty else { return nil }
        samples.withUnsafeBufferPointer { buffer in
            _ = ps_process_raw(decoder, buffer.baseAddress, buffer.count, 0, 0)
        }
        samplesIn += samples.count
        let inSpeech = ps_get_in_speech(decoder) != 0
        if inSpeech { heardSpeech = true }
        if heardSpeech, !inSpeech {
            ps_end_utt(decoder)
            let words = currentWords()
            let hearing = Hearing(utterance: utterance, words: words, final: true, audioTime: audioTime)
            utterance += 1
            utteranceStart = samplesIn
            heardSpeech = false
            ps_start_utt(decoder)
            return hearing
        }
        guard heardSpeech else {
            // No speech yet in this utterance: its frames count from here on.
            return nil
        }
        return Hearing(utterance: utterance, words: currentWords(), final: false, audioTime: audioTime)
    }

    /// The hypothesis's words with times; fillers, silences and the sentence marks left out.
    private func currentWords() -> [HeardWord] {
        var words: [HeardWord] = []
        let origin = Double(utteranceStart) / Double(Self.sampleRate)
        var segment = ps_seg_iter(decoder)
        while let current = segment {
            if let raw = ps_seg_word(current) {
                var word = String(cString: raw)
                if let paren = word.firstIndex(of: "(") { word = String(word[..<paren]) }
                if !word.hasPrefix("<"), !word.hasPrefix("["), !word.isEmpty {
                    var first: Int32 = 0
                    var last: Int32 = 0
                    ps_seg_frames(current, &first, &last)
                    words.append(HeardWord(word: word, start: origin + Double(first) / 100,
                                           end: origin + Double(last + 1) / 100))
                }
            }
            segment = ps_seg_next(current)
        }
        return words
    }
}
