import Foundation
import Prompter
import Render
@testable import Kiosk
@testable import Stage

/// Scripts and a composer setup shared by the scene tests: small displays keep
/// reference images light.
enum SceneFixtures {
    static let display = PixelSize(width: 480, height: 270)

    static let english = """
        Good evening, and thank you for joining us. Tonight we look at how a small \
        studio can make a programme that feels calm and clear.

        Every script starts with one idea, said plainly. Read it once aloud before \
        the camera rolls, then trust the words and keep an even pace.
        """

    static let arabic = """
        مساء الخير، وشكرا لانضمامكم إلينا. الليلة نتحدث عن كيف يمكن لاستوديو صغير أن يصنع برنامجا هادئا وواضحا.
        ערב טוב ותודה שהצטרפתם אלינו. הערב נדבר על אולפן קטן ועל תוכנית רגועה וברורה.
        """

    static let mixedLine = "The Hebrew word שלום and the Arabic word سلام both mean peace (2024)."

    static let emojiAndCJK = """
        Welcome 👋 to the show 🎬 — 欢迎收看节目。今天我们讨论一个小工作室如何制作清晰的节目。\
        こんにちは、皆さん。안녕하세요 여러분 🎤
        """

    /// A presenter's marked-up script (issue 42): emphasis, a highlight and directions.
    static let marked = """
        Good evening, and **thank you** for joining us. *Tonight* we look at how a \
        ==small studio== makes a calm programme. [PAUSE]

        [LOOK AT CAMERA 2] Every script starts with ***one idea***, said plainly.
        """

    static var fonts: FontLibrary {
        get throws { try FontLibrary() }
    }

    static func settings(fontSize: Int = 24, margin: Double = 10, transform: TextTransform = .identity)
        -> ReadingSettings {
        ReadingSettings(fontSize: fontSize, lineSpacing: 1.3, margin: margin, mirror: transform.mirror,
                        flip: transform.flip,
                        rotation: TextRotation(rawValue: transform.rotation.rawValue) ?? .none)
    }

    /// A script opened and playing from t = 0, as `rig snapshot` sets it up: a stage
    /// on a manual clock, both displays of `display` size.
    static func playing(_ text: String, settings: ReadingSettings, display: PixelSize = display,
                        fonts: FontLibrary, takeCountdown: Int = 3) throws -> ManualClockStage {
        var stageSettings = RigStage.Settings(outerSize: display)
        stageSettings.takeCountdown = takeCountdown
        stageSettings.markerPosition = 1.0 / 3.0
        stageSettings.readingDefaults = settings
        let replay = ManualClockStage(settings: stageSettings, innerSize: display, fonts: fonts)
        replay.open(id: "Fixture", title: "Fixture", text: text)
        replay.finishLayout()
        replay.controller.play(at: 0)
        return replay
    }

    /// A Markdown script read as the library reads it (its marks with it), then played.
    static func playingMarkdown(_ markdown: String, settings: ReadingSettings, fonts: FontLibrary) -> ManualClockStage {
        var stageSettings = RigStage.Settings(outerSize: display)
        stageSettings.markerPosition = 1.0 / 3.0
        stageSettings.readingDefaults = settings
        let replay = ManualClockStage(settings: stageSettings, innerSize: display, fonts: fonts)
        let read = ScriptLibrary.readingTextAndMarkers(markdown, format: .markdown, lineBreaks: .auto)
        replay.open(id: "Marked.md", title: "Marked", text: read.text, markers: read.markers, markup: read.markup)
        replay.finishLayout()
        replay.controller.play(at: 0)
        return replay
    }

    static func outer(_ replay: ManualClockStage, at time: Double) throws -> Canvas {
        replay.advance(to: time)
        return try replay.canvas(.outer, at: time)
    }

    static func inner(_ replay: ManualClockStage, at time: Double) throws -> Canvas {
        replay.advance(to: time)
        return try replay.canvas(.inner, at: time)
    }

    static func mirrored(_ canvas: Canvas) throws -> Canvas {
        let result = try Canvas(size: canvas.size)
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                result.pixels[y * canvas.width + x] = canvas.pixels[y * canvas.width + canvas.width - 1 - x]
            }
        }
        return result
    }

    /// A stage at time 100 with a long script open and laid out (40 paragraphs of
    /// `english`), its wall clock tied to the stage clock so two such stages show the
    /// same times: what the partial-redraw tests compare against each other.
    static func longScriptStage(settings: RigStage.Settings, innerSize: PixelSize, fonts: FontLibrary,
                                id: String, title: String) -> ManualClockStage {
        let stage = ManualClockStage(settings: settings, innerSize: innerSize, fonts: fonts, start: 100)
        let clock = stage.clock
        stage.stage.wallClock = { Date(timeIntervalSince1970: 1_800_000_000 + clock.now) }
        let text = (0..<40).map { "Paragraph \($0). " + english }.joined(separator: "\n\n")
        stage.open(id: id, title: title, text: text)
        stage.finishLayout()
        return stage
    }
}
