import Foundation
import Prompter
import Render

/// Both displays of the prompter, composed from one shared state: what the
/// kiosk's frame loop, `rig snapshot` and `rig bench` call to get pixels.
final class PrompterFrameComposer {
    let outerSize: PixelSize
    let innerSize: PixelSize
    var state: PrompterSceneState
    let readingText: ReadingText
    let painter: GlyphPainter
    private let outerCompositor = Compositor()
    private let innerCompositor = Compositor()

    /// A script opened on the engine (stopped at the top, its end known to the
    /// engine), ready to play.
    init(scriptTitle: String, text: String, settings: ReadingSettings, markerPosition: Double,
         outerSize: PixelSize, innerSize: PixelSize, fonts: FontLibrary,
         cacheBudgetBytes: Int = ChunkedTextBlock.defaultCacheBudgetBytes) throws(TextError) {
        self.outerSize = outerSize
        self.innerSize = innerSize
        painter = GlyphPainter(fonts: fonts)
        readingText = ReadingText(text: text, fonts: fonts, painter: painter, cacheBudgetBytes: cacheBudgetBytes)
        try readingText.update(settings: settings, display: outerSize)
        // Only the first screens are laid out before the first frame; the end is an
        // estimate until `finishLayout` (the kiosk finishes it in slices between frames).
        readingText.layout?.ensureLaidOut(throughY: Double(max(outerSize.width, outerSize.height)) * 2)
        var engine = PrompterEngine(speed: settings.speed)
        engine.open(at: 0, maxOffset: readingText.layout?.totalHeight ?? 0)
        state = PrompterSceneState(scriptTitle: scriptTitle, engine: engine, settings: settings,
                                   markerPosition: markerPosition)
    }

    /// Lays out the rest of the script and gives the engine the exact end.
    func finishLayout() {
        state.engine.setMaxOffset(readingText.contentHeight())
    }

    /// Font warning of the reading text (family not installed, another used).
    var fontWarning: FontWarning? { readingText.layout?.fontWarning }

    /// Applies new reading settings. A relayout keeps the reading position.
    func apply(settings: ReadingSettings, at time: Double) throws(TextError) {
        state.settings = settings
        if let relayout = try readingText.update(settings: settings, display: outerSize) {
            state.engine.relayout(at: time, newMaxOffset: readingText.contentHeight(),
                                  mapOffset: relayout.mapOffset)
        }
    }

    /// Composes one outer (talent) frame for presentation time `time` into
    /// `target`, with SRC-only writes (a scanout buffer is fine). This is the
    /// call `rig bench` times.
    func composeOuterFrame(at time: Double, into target: PixelTarget) {
        let layers = OuterPrompterScene.layers(display: target.size, state: state, at: time, text: readingText)
        outerCompositor.compose(layers, into: target)
    }

    /// The operator console's prompter screen for the same state, as the kiosk's
    /// inner display would show it (outer display presenting, no camera).
    func composeInnerFrame(at time: Double, into target: PixelTarget) {
        // A controller that never saves: its state directory is never created.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rig-snapshot-\(UUID().uuidString)")
        let controller = PrompterController(library: nil, stateDirectory: scratch, defaults: state.settings,
                                            wordsPerMinute: ReadingTime.defaultWordsPerMinute)
        controller.openText(.init(id: state.scriptTitle, title: state.scriptTitle, text: readingText.text,
                                  wordCount: ReadingTime.wordCount(readingText.text), repaired: false), at: 0)
        controller.adopt(state.engine)
        for problem in state.problems { controller.addProblem(problem) }
        var outer = DisplayStatus(connector: "outer", connected: true, available: true)
        outer.mode = VideoMode(width: outerSize.width, height: outerSize.height, refreshMillihertz: 60_000)
        let preview = OperatorScriptPreview(fonts: readingText.fonts, painter: painter)
        let model = ConsoleModel(
            state: ConsoleState(), controller: controller, time: time, outer: outer,
            elapsed: state.engine.state(at: time) == .stopped ? 0 : time, cameraState: nil,
            scriptPreview: { [readingText, outerSize, state] rect in
                preview.layers(in: rect, outer: readingText, outerDisplay: outerSize, settings: state.settings,
                               offset: state.engine.offset(at: time), markerPosition: state.markerPosition)
            },
            cameraThumbnail: { _ in [] })
        let panel = ConsoleView.panel(model, size: target.size, labels: LabelCache(painter: painter))
        innerCompositor.compose(panel.layers, into: target)
    }
}
