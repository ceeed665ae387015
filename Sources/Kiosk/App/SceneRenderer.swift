import Prompter
import Render

/// Turns the app state into pixels for either display through the scenes, and
/// remembers what each display last showed so an unchanged frame is not flipped:
/// a paused prompter costs no CPU.
final class SceneRenderer {
    /// What a frame depends on. Equal keys mean equal pixels.
    private struct FrameKey: Equatable {
        var offsetRow: Int
        var state: TransportState
        var speed: Int
        var settings: ReadingSettings
        var scriptID: String?
        var layoutGeneration: Int
        var pausedByTap: Bool
        var blanked: Bool
        var mode: PrompterController.Mode
        var problems: Int
        var outerPresenting: Bool
    }

    let fonts: FontLibrary?
    let painter: GlyphPainter?
    let markerPosition: Double
    let cacheBudgetBytes: Int
    private(set) var readingText: ReadingText?
    private var readingScriptID: String?
    /// The settings and size the reading text was last brought in line with.
    private var appliedSettings: ReadingSettings?
    private var appliedSize: PixelSize?
    private var layoutGeneration = 0
    private var lastKeys: [DisplayRole: FrameKey] = [:]
    private var targets: [UnsafeMutableRawPointer: BorrowedFrameBuffer] = [:]
    private let compositors: [DisplayRole: Compositor] = [.inner: Compositor(), .outer: Compositor()]
    /// Whether the last outer frame showed a pause made by a tap (tap latency ends there).
    private(set) var lastOuterShowedTapPause = false
    /// Set when fonts could not be loaded; the kiosk still shows plain colours.
    let fontProblem: String?

    init(config: RigConfig) {
        markerPosition = config.prompter.markerPosition
        cacheBudgetBytes = config.prompter.cacheMB << 20
        do {
            let library = try FontLibrary()
            fonts = library
            painter = GlyphPainter(fonts: library)
            fontProblem = nil
        } catch {
            fonts = nil
            painter = nil
            fontProblem = "fonts: \(error)"
        }
    }

    struct Relayout {
        var maxOffset: Double
        var mapOffset: (Double) -> Double
        var offsetOfWord: (Int) -> Double?
        var lineHeight: Double = 0
    }

    /// Lays the open script out for the outer display (or keeps what still fits) and
    /// says how an old offset maps onto the new layout.
    func relayout(controller: PrompterController, outerSize: PixelSize) -> Relayout {
        guard let script = controller.script, let fonts, let painter else {
            readingText = nil
            readingScriptID = nil
            return Relayout(maxOffset: 0, mapOffset: { _ in 0 }, offsetOfWord: { _ in nil })
        }
        if readingScriptID != script.id || readingText?.text != script.text {
            readingText = ReadingText(text: script.text, fonts: fonts, painter: painter, cacheBudgetBytes: cacheBudgetBytes)
            readingScriptID = script.id
        }
        layoutGeneration += 1
        guard let readingText else { return Relayout(maxOffset: 0, mapOffset: { $0 }, offsetOfWord: { _ in nil }) }
        do {
            let change = try readingText.update(settings: controller.settings, display: outerSize)
            appliedSettings = controller.settings
            appliedSize = outerSize
            let layout = readingText.layout
            return Relayout(maxOffset: readingText.contentHeight(),
                            mapOffset: { change?.mapOffset($0) ?? $0 },
                            offsetOfWord: { word in layout.map { $0.y(ofWord: word) } },
                            lineHeight: layout?.lineHeight ?? 0)
        } catch {
            controller.addProblem("text layout: \(error)")
            return Relayout(maxOffset: 0, mapOffset: { _ in 0 }, offsetOfWord: { _ in nil })
        }
    }

    /// The word at the reading line, for saving the reading position.
    func wordIndex(atOffset offset: Double) -> Int? {
        readingText?.layout?.wordIndex(atY: offset)
    }

    /// Whether the display's next frame will differ from this one without any event.
    func isAnimating(_ role: DisplayRole, controller: PrompterController, at time: Double) -> Bool {
        controller.engine.isMoving(at: time) && controller.mode == .prompter
    }

    /// Draws the frame for `role` if anything it shows changed. Returns whether it drew.
    func draw(_ role: DisplayRole, into target: FrameTarget, controller: PrompterController,
              outerPresenting: Bool) -> Bool {
        let time = target.presentationTime
        let engine = controller.engine
        let key = FrameKey(offsetRow: Int(engine.offset(at: time).rounded()), state: engine.state(at: time),
                           speed: engine.speed, settings: controller.settings, scriptID: controller.script?.id,
                           layoutGeneration: layoutGeneration, pausedByTap: controller.pausedByTap,
                           blanked: controller.blanked, mode: controller.mode,
                           problems: controller.problems.count, outerPresenting: outerPresenting)
        guard target.mustDraw || lastKeys[role] != key, let buffer = frameBuffer(for: target) else { return false }
        lastKeys[role] = key
        let state = PrompterSceneState(scriptTitle: controller.script?.title ?? "", engine: engine,
                                       settings: controller.settings, markerPosition: markerPosition,
                                       pausedByTap: controller.pausedByTap, problems: controller.problems,
                                       outerPresenting: outerPresenting)
        let layers: [Layer]
        switch role {
        case .outer:
            lastOuterShowedTapPause = controller.pausedByTap && engine.state(at: time) == .paused
            layers = outerLayers(size: buffer.size, state: state, controller: controller, at: time)
        case .inner:
            guard let painter else {
                layers = [.fill(PixelRect(size: buffer.size), InnerStatusScene.background)]
                break
            }
            layers = InnerStatusScene.layers(display: buffer.size, state: state, at: time, painter: painter)
        }
        compositors[role]?.compose(layers, into: buffer)
        return true
    }

    private func outerLayers(size: PixelSize, state: PrompterSceneState, controller: PrompterController,
                             at time: Double) -> [Layer] {
        let frame = PixelRect(size: size)
        if controller.blanked { return [.fill(frame, Color(rgb: 0x000000))] }
        guard controller.mode == .prompter, let readingText else {
            return [.fill(frame, state.settings.backgroundColor.color)]
        }
        // Colours and transforms change the cached pixels, not the layout: the block
        // takes them here. Changes that move text came through `relayout` already.
        if appliedSettings != controller.settings, appliedSize == size {
            _ = try? readingText.update(settings: controller.settings, display: size)
            appliedSettings = controller.settings
        }
        return OuterPrompterScene.layers(display: size, state: state, at: time, text: readingText)
    }

    /// One pixman image per scanout buffer, made once: buffers are double-buffered and
    /// live until a modeset, so the cache stays at a few entries.
    private func frameBuffer(for target: FrameTarget) -> BorrowedFrameBuffer? {
        if let cached = targets[target.pixels], cached.size == PixelSize(width: target.width, height: target.height) {
            return cached
        }
        if targets.count > 8 { targets.removeAll() }
        let buffer = try? BorrowedFrameBuffer(memory: target.pixels, width: target.width, height: target.height,
                                              strideBytes: target.stride)
        targets[target.pixels] = buffer
        return buffer
    }
}
