import Foundation
import Game
import Render

extension GameScreen {
    /// The setup values stepped with Left and Right (or a click on either half), each
    /// with what it means. A step to a value out of range is refused with the reason.
    package enum Setting: String, CaseIterable {
        case mode, recording, perTurn = "per_turn", response, cue, wpm, seated

        package var id: WidgetID { "game:set:" + rawValue }

        package var label: String {
            switch self {
            case .mode: "Mode"
            case .recording: "Recording"
            case .perTurn: "Challenges per turn"
            case .response: "Response window"
            case .cue: "Cue duration"
            case .wpm: "Speech speed"
            case .seated: "Seated players"
            }
        }

        /// The field the game names in a refusal of this value.
        package var field: SetupField {
            switch self {
            case .mode: .mode
            case .recording: .recording
            case .perTurn: .challengesPerTurn
            case .response: .responseWindow
            case .cue: .cueDuration
            case .wpm: .wordsPerMinute
            case .seated: .groups
            }
        }

        package func value(_ settings: GameSettings) -> String {
            switch self {
            case .mode: settings.mode == .visual ? "Visual S/Z" : "Spoken"
            case .recording: !settings.recording ? "Off" : settings.pictureOnly ? "Picture only" : "Picture and sound"
            case .perTurn: "\(settings.challengesPerTurn)"
            case .response: String(format: "%.0f s", settings.responseWindow)
            case .cue: String(format: "%.2g s", settings.cueDuration)
            case .wpm: "\(settings.wordsPerMinute) wpm"
            case .seated: settings.seatedOnly ? "Seated cards only" : "All cards"
            }
        }

        /// What the value means for play, in one line.
        package func help(_ settings: GameSettings) -> String {
            switch self {
            case .mode:
                settings.mode == .visual
                    ? "The instruction is spoken alone; then \(CueLetter.s.help) \(CueLetter.z.help)"
                    : "Act only when the instruction begins with “Simon says”."
            case .recording:
                !settings.recording ? "No file is made; nobody is asked for consent."
                    : settings.pictureOnly ? "The camera is recorded without sound for review; each player is asked first."
                    : "Camera and microphone are recorded for review; each player is asked first."
            case .perTurn: "Judged challenges each player gets before the next player's turn (1 to 10)."
            case .response: "Time to act, from the end of the speech or the letter's first frame (2 to 10 s)."
            case .cue: "How long the S or Z stays on the participant's display (0.5, 0.75 or 1.5 s)."
            case .wpm: "How fast the instruction is spoken (80 to 450 words per minute)."
            case .seated: settings.seatedOnly ? "Only actions a seated player can do are offered." : "Every action is offered."
            }
        }

        /// The settings one step on. Not checked here: the game refuses values out of
        /// range and says why.
        package func stepped(_ settings: GameSettings, by delta: Int) -> GameSettings {
            var next = settings
            switch self {
            case .mode: next.mode = settings.mode == .visual ? .spoken : .visual
            case .recording:
                // Picture and sound, picture only, off, and round again.
                switch (settings.recording, settings.pictureOnly) {
                case (true, false): next.pictureOnly = true
                case (true, true): next.recording = false
                case (false, _):
                    next.recording = true
                    next.pictureOnly = false
                }
            case .perTurn: next.challengesPerTurn += delta
            case .response: next.responseWindow += Double(delta)
            case .cue:
                let all = GameSettings.cueDurations
                let index = all.firstIndex(of: settings.cueDuration) ?? 0
                next.cueDuration = all[((index + delta) % all.count + all.count) % all.count]
            case .wpm: next.wordsPerMinute += delta * 25
            case .seated: next.seatedOnly.toggle()
            }
            return next
        }
    }
}
