import Foundation
import Render
import Game
import Media
import Testing
@testable import Kiosk
@testable import Stage

/// A recorded game on the manual clock: the real GameController, RecordingService,
/// recorder and port; speech that "plays" on the clock; camera frames and microphone
/// periods from the recording harness's fake sources.
final class GameRecordingHarness {
    /// Speech on the manual clock: prepared at once, the first sample at the DAC
    /// `latency` after play, the last `duration` later. `stuck` never reports the end.
    final class Speech: GameSpeechPort {
        let rig: RecordingHarness
        weak var port: KioskGameRecording?
        var duration = 1.0
        var latency = 0.02
        var stuck = false
        private(set) var playCalls: [Double] = []
        private var live: Set<UInt64> = []

        init(rig: RecordingHarness) { self.rig = rig }

        func prepare(_ text: String, wordsPerMinute: Int, generation: UInt64,
                     done: @escaping (Result<Double, GameSpeechFailure>) -> Void) {
            let duration = duration
            rig.timers.pending.append((rig.clock.now, { done(.success(duration)) }))
        }

        func play(generation: UInt64, report: @escaping (GameSpeechReport) -> Void) {
            playCalls.append(rig.clock.now)
            live.insert(generation)
            // A 440 Hz tone stands in for the instruction, for the narrated export.
            let samples = (0..<Int(duration * 22050)).map { Int16(8000 * sin(Double($0) * 2 * .pi * 440 / 22050)) }
            port?.played(generation: generation, clip: SpeechClip(text: "x", voice: "en-us", rate: 175, sampleRate: 22050,
                                                                 samples: samples, words: []))
            let start = rig.clock.now + latency, end = start + duration
            rig.timers.pending.append((start, { [weak self] in
                if self?.live.contains(generation) == true { report(.started(time: start)) }
            }))
            guard !stuck else { return }
            rig.timers.pending.append((end, { [weak self] in
                if self?.live.contains(generation) == true { report(.ended(time: end)) }
            }))
        }

        func cancel(generation: UInt64) { live.remove(generation) }
    }

    static let catalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/game/actions.json")

    let rig: RecordingHarness
    let game: GameController
    let port: KioskGameRecording
    let speech: Speech
    private var flips: UInt64 = 0
    private var soundFrame: Int64 = 0
    /// The capture time of the next microphone period (0.1 s, delivered when it is over).
    private var nextSound = 0.0

    init(mode: GameMode = .spoken, response: Double = 2, pictureOnly: Bool = false) throws {
        rig = try RecordingHarness()
        let rig = rig
        game = GameController(catalogURL: Self.catalog, stateDirectory: nil, now: { rig.clock.now },
                              schedule: { rig.timers.pending.append(($0, $1)) })
        port = KioskGameRecording(service: rig.service, clock: { rig.clock.now },
                                  schedule: { rig.timers.pending.append(($0, $1)) })
        speech = Speech(rig: rig)
        speech.port = port
        port.game = game
        port.videoFormat = { rig.video }
        // The kiosk draws the export's badge with its fonts, as the composition root wires it.
        let painter = try GlyphPainter(fonts: FontLibrary())
        port.badgePicture = { CueBadge.picture(letter: $0, pictureWidth: $1, pictureHeight: $2, painter: painter) }
        rig.service.onPumped = { [unowned port] in port.pumped(take: $0) }
        rig.service.onEnded = { [unowned rig, unowned port] outcome in
            rig.outcomes.append(outcome)
            port.ended(outcome)
        }
        game.speech = speech
        game.recording = port
        var settings = GameSettings()
        settings.mode = mode
        settings.responseWindow = response
        settings.recording = true
        settings.pictureOnly = pictureOnly
        try game.start(GameSetup(host: "Host", players: ["Ann", "Bo"], settings: settings))
        game.open()
        game.rigChanged(RigConditions(cameraID: "camera", cameraStreaming: true, outerEnabled: true,
                                      outerAvailable: true, participantViewShown: true))
        try game.perform(.consent(player: "Ann", agreed: true))
        try game.perform(.select(ChallengeSelection(cardID: "poses.star", rule: .host(.simonSays))))
    }

    var phase: GamePhase? { game.session?.phase }
    var attempt: AttemptRecord? { game.session?.attempts.last }

    func send() throws {
        nextSound = rig.clock.now - 0.1
        deliverSound()
        try game.perform(.send)
        rig.runDueTimers()
    }

    /// The microphone periods captured by now, each handed over when it is complete.
    private func deliverSound() {
        while nextSound + 0.1 <= rig.clock.now + 1e-9 {
            let samples = (0..<4800).map { Int16(1000 * sin(Double(soundFrame + Int64($0)) / 10)) }
            rig.ring.append(CapturedPeriod(firstFrame: soundFrame, time: nextSound, sampleRate: 48000, samples: samples))
            soundFrame += 4800
            nextSound += 0.1
        }
    }

    /// Frames and sound until `done` holds or `seconds` pass on the manual clock; the
    /// cue (Visual S/Z) is acknowledged by a flip at the first frame that has it.
    func play(upTo seconds: Double, frames: Bool = true, until done: () -> Bool = { false }) {
        let end = rig.clock.now + seconds
        while rig.clock.now < end - 1e-9 && !done() {
            if frames { rig.frame() }
            deliverSound()
            rig.clock.now += 1.0 / 30
            rig.runDueTimers()
            if let cue = game.shownCue {
                flips += 1
                game.outerFlipped(FlipStamp(time: rig.clock.now, sequence: flips), cue: cue)
            }
        }
    }

    /// Posted work (the recorder's events, the file closing) until `done`.
    func settle(_ done: () -> Bool) { rig.runUntil(done) }

    func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: rig.folder)) ?? []).sorted()
    }

    func metadata(_ file: String) throws -> GameClipMetadata {
        MetadataWriter.shared.flush()
        let json = String(file.dropLast(4)) + ".json"
        return try JSONDecoder().decode(GameClipMetadata.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
    }
}
