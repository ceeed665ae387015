import Prompter
import Render

/// The prompter as one frame shows it: every value a scene reads of the prompter,
/// taken from the controller at the frame's time. It is part of the frame's input
/// (`SceneInput`), so a scene that wants something new of the prompter adds it here,
/// where it is compared too: nothing a scene reads can be forgotten by the change key.
package struct PrompterShown: Equatable {
    package var scriptID: String?
    package var scriptTitle: String?
    package var scriptWords: Int?
    /// The text's position as drawn: the whole pixel row at the reading line. The
    /// console's progress, time left and script preview follow the same row.
    package var offsetRow: Int
    /// The text's position in 48ths of a pixel: where the outer display draws it
    /// (ChunkedTextBlock.rowFractions), so every frame moves it by the exact fraction.
    package var offsetFractions: Int
    /// The end of the text: a long layout finishing in slices moves it, and with it
    /// the console's progress, words per minute and time left.
    package var maxOffset: Double
    package var state: TransportState
    package var ended: Bool
    package var speed: Int
    package var pausedByTap: Bool
    package var blanked: Bool
    package var mode: PrompterController.Mode
    package var settings: ReadingSettings
    /// What the operator must know about (bad rig.toml, missing devices): the banner.
    package var problems: [String]
    /// "1 Opening 0:00 · 2 Weather 0:45 · …", nil without markers, and in frames that
    /// show no markers line (all but the console's Prompter screen): placing the
    /// markers reads the whole text.
    package var markerLine: String?
    /// The reading pace the library's reading times are given at.
    package var libraryWordsPerMinute: Int
    /// The countdown before a run, whole seconds to go.
    package var countdown: Int?
    /// "3:05" left to the end at this speed (the countdown included): the talent's
    /// readout, taken only for outer frames that show it (`outer_timer` on, not blanked,
    /// a script open).
    package var remainingClock: String?
    /// The layout the text is drawn from: a new one is a new frame even where the
    /// row and the settings are the same.
    package var layoutGeneration: Int

    /// For a frame of `role`; `consoleScreen`: the screen the console shows (the inner
    /// display's markers line is on its Prompter screen only). What a frame does not
    /// show is not taken: the markers line reads the whole text, the readout formats.
    package init(_ controller: PrompterController, at time: Double, layoutGeneration: Int, role: DisplayRole,
                 consoleScreen: ConsoleScreen) {
        let engine = controller.engine
        let offset = engine.offset(at: time)
        scriptID = controller.script?.id
        scriptTitle = controller.script?.title
        scriptWords = controller.script?.wordCount
        offsetRow = offset.isFinite ? Int(offset.rounded()) : 0
        offsetFractions = offset.isFinite ? Int((offset * Double(ChunkedTextBlock.rowFractions)).rounded()) : 0
        maxOffset = engine.maxOffset
        state = engine.state(at: time)
        ended = engine.isEnded(at: time)
        speed = engine.speed
        pausedByTap = controller.pausedByTap
        blanked = controller.blanked
        mode = controller.mode
        settings = controller.settings
        problems = controller.problems.lines
        if role == .inner, consoleScreen == .prompter {
            markerLine = OperatorTimers.markerLine(controller.markers, speed: engine.speed)
        }
        libraryWordsPerMinute = controller.wordsPerMinute
        countdown = engine.countdownShown(at: time)
        if role == .outer, settings.outerTimer, !blanked, controller.script != nil {
            let left = engine.maxOffset.isFinite ? max(0, engine.maxOffset - offset) : 0
            let waiting = engine.countdownEnd.map { max(0, $0 - time) } ?? 0
            remainingClock = ReadingStopwatch.clock((ended ? 0 : left / Double(engine.speed)) + waiting)
        }
        self.layoutGeneration = layoutGeneration
    }

    /// The drawn row as a position in the text.
    package var offset: Double { Double(offsetRow) }

    /// Words per minute at this speed, from the open script's words per pixel.
    package var wordsPerMinute: Int? {
        guard let scriptWords, maxOffset > 0 else { return nil }
        return Int((Double(speed) * 60 * Double(scriptWords) / maxOffset).rounded())
    }
}
