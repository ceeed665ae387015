import Durable
import Foundation
import Game
import Media
import Prompter
import Stage

/// The JSON beside a game attempt's MP4: the recorder's part (as for a take), the
/// annotation keys every clip reader uses (`kind`, `player`, `card`, `rule`, `mode`,
/// `verdict`, `game`), the attempt in detail with its times on the recording's
/// timeline, and the derived export's status. Rewritten whole and crash-safely (temp,
/// fsync, rename) on every change: verdict, correction, export progress.
struct GameClipMetadata: Codable, Equatable {
    var recording: RecordingResult
    var annotations: [String: String]
    var attempt: GameClipAttempt
    var export: DerivedExportStatus?

    init(recording: RecordingResult, attempt: GameClipAttempt, export: DerivedExportStatus? = nil) {
        self.recording = recording
        self.attempt = attempt
        self.export = export
        annotations = [:]
        refreshAnnotations()
    }

    /// The flat keys, from the attempt (after any change of it).
    mutating func refreshAnnotations() {
        annotations["kind"] = "game"
        annotations["game"] = attempt.game
        annotations["attempt"] = String(attempt.id)
        annotations["player"] = attempt.player
        annotations["card"] = attempt.card
        annotations["card_title"] = attempt.cardTitle
        annotations["instruction"] = attempt.instruction
        annotations["rule"] = attempt.rule
        annotations["mode"] = attempt.mode
        annotations["verdict"] = attempt.verdict ?? ""
        // A game records sound unless the host chose picture only (Send waits for a microphone).
        annotations["audio"] = attempt.timeline.audio == "none" ? "none: picture only, the host's choice" : nil
        // `export` names the derived file once it is ready (what the Clips screen exports);
        // `export_state` says how far it is.
        annotations["export"] = export?.state == .ready ? export?.file : nil
        annotations["export_state"] = export?.state.rawValue
    }

    static func read(_ path: String) -> GameClipMetadata? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(GameClipMetadata.self, from: data)
    }

    func encoded() throws(RecordingError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            return try encoder.encode(self)
        } catch {
            throw .folder(path: recording.path, reason: "metadata not encoded: \(error)")
        }
    }
}

/// One attempt as its clip keeps it. Times are seconds on the recording's timeline:
/// 0 is the file's time zero, where its first sound sample sits (the recorder starts
/// the sound there; the first picture follows within a frame).
struct GameClipAttempt: Codable, Equatable {
    var id: Int
    /// The game session's id.
    var game: String
    var player: String
    var card: String
    /// The card's action with its parameters filled in, without the rule.
    var cardTitle: String
    /// Exactly what was spoken.
    var instruction: String
    var rule: String
    var mode: String
    var fingers: Int?
    var hand: String?
    var cueLetter: String?
    var cueDuration: Double?
    var responseDuration: Double
    var wordsPerMinute: Int
    var verdict: String?
    var verdicts: [VerdictChange]
    var timeline: GameClipTimeline
    /// The recorded picture's size (the cue badge is drawn for it).
    var width: Int
    var height: Int

    enum CodingKeys: String, CodingKey {
        case id, game, player, card, instruction, rule, mode, fingers, hand, verdict, verdicts, timeline, width, height
        case cardTitle = "card_title", cueLetter = "cue_letter", cueDuration = "cue_duration"
        case responseDuration = "response_duration", wordsPerMinute = "words_per_minute"
    }

    init(_ record: AttemptRecord, game: String, recording: RecordingResult, video: VideoTrackFormat) {
        let snapshot = record.snapshot
        id = record.id
        self.game = game
        player = snapshot.player
        card = snapshot.card.id
        cardTitle = snapshot.card.parameters.fill(snapshot.card.text)
        instruction = snapshot.instruction
        rule = snapshot.rule.rawValue
        mode = snapshot.mode.rawValue
        fingers = snapshot.card.parameters.fingers
        hand = snapshot.card.parameters.hand?.rawValue
        cueLetter = snapshot.cue.map { $0.letter.rawValue }
        cueDuration = snapshot.cue?.duration
        responseDuration = snapshot.responseDuration
        wordsPerMinute = snapshot.speech.wordsPerMinute
        verdict = record.verdict?.rawValue
        verdicts = record.verdicts
        timeline = GameClipTimeline(record.timing, snapshot: snapshot, recording: recording)
        width = video.width
        height = video.height
    }

    /// The cue's letter and place, for the cue export and the replay; nil for spoken play
    /// or a cue never shown.
    var cue: ClipCue? {
        guard let start = timeline.cueOnset, let end = timeline.cueEnd, let letter = cueLetter?.first else { return nil }
        return ClipCue(letter: letter, interval: CueInterval(start: start, end: end))
    }
}

/// The attempt's moments on the recording's timeline (seconds from its time zero).
struct GameClipTimeline: Codable, Equatable {
    var speechStart: Double?
    var speechEnd: Double?
    var cueOnset: Double?
    var cueEnd: Double?
    var responseStart: Double?
    var responseEnd: Double?
    var firstVideo: Double?
    var firstAudio: Double?
    /// "none" when the file has no sound (picture-only recording), else "microphone";
    /// nil in clips written before it was kept.
    var audio: String?
    /// The file's length.
    var end: Double

    enum CodingKeys: String, CodingKey {
        case speechStart = "speech_start", speechEnd = "speech_end", cueOnset = "cue_onset", cueEnd = "cue_end"
        case responseStart = "response_start", responseEnd = "response_end", firstVideo = "first_video"
        case firstAudio = "first_audio", audio, end
    }

    init(_ timing: AttemptTiming, snapshot: ChallengeSnapshot, recording: RecordingResult) {
        let origin = recording.origin
        func onTimeline(_ time: Double?) -> Double? { time.map { ($0 - origin) } }
        speechStart = onTimeline(timing.speechStart)
        speechEnd = onTimeline(timing.speechEnd)
        cueOnset = onTimeline(timing.cueOnset)
        cueEnd = cueOnset.flatMap { onset in snapshot.cue.map { onset + $0.duration } }
        responseStart = onTimeline(timing.responseStart)
        responseEnd = onTimeline(timing.responseEnd)
        firstVideo = onTimeline(recording.firstVideoTimestamp)
        firstAudio = onTimeline(recording.firstAudioTimestamp)
        audio = recording.audioSamples > 0 ? "microphone" : "none"
        end = recording.duration
    }
}

/// The derived export of a game clip: the cue burned in (Visual S/Z) or the narration
/// mixed in (spoken). `file` is the derived MP4's name in the recordings folder.
struct DerivedExportStatus: Codable, Equatable {
    enum Kind: String, Codable, CaseIterable { case cue, narrated }
    enum State: String, Codable { case pending, ready, failed }
    var kind: Kind
    var state: State
    var file: String
    var reason: String?
}
