import Game
import Media
import Prompter
import Render

/// Turns the app state into pixels for either display through the scenes, and
/// remembers what each display last showed so an unchanged frame is not flipped:
/// a paused prompter costs no CPU. What a frame showed goes back in its
/// `FrameReport`; the renderer writes into no caller.
package final class SceneRenderer {
    package let fonts: FontLibrary?
    package let painter: GlyphPainter?
    package let markerPosition: Double
    /// The reading text's cache as configured; nil: as the outer display's size asks.
    package let cacheBudgetBytes: Int?
    package private(set) var readingText: ReadingText?
    private var readingScriptID: String?
    /// The settings and size the reading text was last brought in line with.
    private var appliedSettings: ReadingSettings?
    private var appliedSize: PixelSize?
    /// Bumped by every relayout: a frame of an older layout is not the first of this one,
    /// and a layout finisher of an older one stops.
    package private(set) var layoutGeneration = 0
    /// The input of each display's frame last drawn: an equal input is not drawn again.
    private var lastInputs: [DisplayRole: SceneInput] = [:]
    /// The input of the frame last drawn ahead (`FrameTarget.preparing`) into a buffer
    /// that still holds it.
    private var preparedInputs: [DisplayRole: SceneInput] = [:]
    private let scanout = ScanoutImages()
    private let compositors: [DisplayRole: Compositor] = [.inner: Compositor(), .outer: Compositor()]
    private let camera = CameraPictures()
    /// The size and mirroring of the last outer frame drawn with the camera; nil once
    /// an outer frame shows no camera.
    package private(set) var outerPreviewTarget: PreviewTarget?
    /// Outer previews this renderer converted itself (no picture came for the frame).
    package var previewsConvertedHere: Int { camera.previewsConvertedHere }
    private let participant = ParticipantPreview()
    /// The outer display's size as it was last drawn: the preview keeps its shape.
    private var outerSize = PixelSize(width: 16, height: 9)
    private var warmScratch: Canvas?
    /// The participant view's texts, laid out once and kept while they show.
    private let outerLabels: LabelCache?
    /// The cue letters' layouts: never dropped (a new frame count never reaches it).
    private let cueLabels: LabelCache?
    /// The replay's picture scaled into its rectangle, once per picture.
    private let replayCanvas = ReplayPictureCanvas()
    private let labels: LabelCache?
    /// The operator's upright copy of the reading text on the inner display.
    package let scriptPreview: OperatorScriptPreview?
    private let selfTestCards: SelfTestCardPainter

    /// Without fonts (`fonts` nil) the displays show plain colours.
    package init(fonts: FontLibrary?, markerPosition: Double, cacheBudgetBytes: Int?) {
        self.markerPosition = markerPosition
        self.cacheBudgetBytes = cacheBudgetBytes
        self.fonts = fonts
        if let fonts {
            let glyphs = GlyphPainter(fonts: fonts)
            painter = glyphs
            labels = LabelCache(painter: glyphs)
            outerLabels = LabelCache(painter: glyphs)
            cueLabels = LabelCache(painter: glyphs)
            scriptPreview = OperatorScriptPreview(fonts: fonts, painter: glyphs)
        } else {
            painter = nil
            labels = nil
            outerLabels = nil
            cueLabels = nil
            scriptPreview = nil
        }
        selfTestCards = SelfTestCardPainter(painter: painter)
    }

    package struct Relayout {
        package var maxOffset: Double
        package var mapOffset: (Double) -> Double
        package var offsetOfWord: (Int) -> Double?
        package var lineHeight: Double = 0
        /// Set when the family has no face of the weight asked for (the nearest is used).
        package var weightNote: String?
    }

    /// Lays the open script out for the outer display (or keeps what still fits) and
    /// says how an old offset maps onto the new layout.
    package func relayout(controller: PrompterController, outerSize: PixelSize) -> Relayout {
        layoutGeneration += 1
        guard let script = controller.script, let fonts, let painter else {
            readingText = nil
            readingScriptID = nil
            return Relayout(maxOffset: 0, mapOffset: { _ in 0 }, offsetOfWord: { _ in nil })
        }
        // The budget and phases follow the display and the text's colours (ReadingText.update).
        if readingScriptID != script.id || readingText?.text != script.text || readingText?.markup != script.markup
            || readingText?.cacheBudgetBytes != cacheBudgetBytes {
            readingText = ReadingText(text: script.text, markup: script.markup, fonts: fonts, painter: painter,
                                      cacheBudgetBytes: cacheBudgetBytes, rowPhases: ChunkedTextBlock.rowPhases)
            readingScriptID = script.id
        }
        guard let readingText else { return Relayout(maxOffset: 0, mapOffset: { $0 }, offsetOfWord: { _ in nil }) }
        do {
            let change = try readingText.update(settings: controller.settings, display: outerSize)
            appliedSettings = controller.settings
            appliedSize = outerSize
            let layout = readingText.layout
            // The first screens now; the rest is laid out in slices on the loop
            // (`continueLayout`), so the first frame never waits for a long script.
            layout?.ensureLaidOut(throughY: Double(max(outerSize.width, outerSize.height)) * 2)
            return Relayout(maxOffset: layout?.totalHeight ?? 0,
                            mapOffset: { change?.mapOffset($0) ?? $0 },
                            offsetOfWord: { word in layout.map { $0.y(ofWord: word) } },
                            lineHeight: layout?.lineHeight ?? 0,
                            weightNote: fonts.weightNote(for: controller.settings.textStyle))
        } catch {
            controller.addProblem("text layout: \(error)")
            return Relayout(maxOffset: 0, mapOffset: { _ in 0 }, offsetOfWord: { _ in nil })
        }
    }

    /// Lays out up to `lines` more lines of the open script. Returns the exact content
    /// height once the layout is complete (and nil while there is more to do).
    package func continueLayout(lines: Int) -> Double? {
        guard let layout = readingText?.layout else { return nil }
        if !layout.isComplete { layout.ensureLaidOut(throughLine: layout.lineCount + lines) }
        return layout.isComplete ? layout.totalHeight : nil
    }

    /// Colours and transforms change the cached pixels, not the layout: the block
    /// takes them before the outer frame that shows them. Changes that move text came
    /// through `relayout` already.
    package func applyDrawingSettings(_ settings: ReadingSettings, outerSize: PixelSize) {
        guard let readingText, appliedSettings != settings, appliedSize == outerSize else { return }
        _ = try? readingText.update(settings: settings, display: outerSize)
        appliedSettings = settings
    }

    /// Idle time after a flip: rasterizes a piece of text the next frames will need,
    /// so pressing play after a pause or a settings change does not stall a frame.
    /// Returns whether it found something to do.
    ///
    /// It reaches past the next screens, nearest pieces first and each at every row
    /// phase the frames choose from (a scroll at any speed lands on all of them),
    /// until the cache holds its whole budget (or the whole text at every phase, when
    /// that is smaller): the size the cache settles at anyway, since it only evicts
    /// when full. Filling it while idle right after a script is opened or laid out
    /// again puts the kiosk's memory at its steady state then, instead of a piece more
    /// each time the scrolling first reaches one, minutes later. A new layout's first
    /// frame comes first: until it is drawn, this does nothing, so a warm-up still
    /// running when another script is opened never holds that frame back.
    package func prepareAhead(outerSize: PixelSize) -> Bool {
        guard let block = readingText?.block, lastInputs[.outer]?.prompter.layoutGeneration == layoutGeneration
        else { return false }
        let viewportRows = block.transform.textSize(forDisplay: outerSize).height
        if block.prepareAhead(viewportRows: Self.prepareReach(viewportRows: viewportRows, block: block),
                              limit: Self.piecesPerTurn(block)) > 0 {
            return true
        }
        // Then the operator's copy on the inner display, the same way.
        return scriptPreview?.prepareAhead() ?? false
    }

    /// Pieces to rasterize in one idle loop turn: a block with row phases cuts its
    /// pieces that many times shorter, so as many of them are the same work a piece
    /// was without phases, and the warm-up still fills the budget in as many turns.
    package static func piecesPerTurn(_ block: ChunkedTextBlock) -> Int { block.rowPhaseLimit }

    /// The `viewportRows` to give `ChunkedTextBlock.prepareAhead`, which prepares text
    /// rows from `reach` above the viewport's centre to 1.5 `reach` below it, nearest
    /// first, and stops at the first piece the budget has no room for. The rows below
    /// alone hold the budget, so it fills at the top of a script too (nothing above).
    /// Counted in rows of colour pieces even for gray ones (a byte a pixel): at four
    /// or more phases those rows still hold the budget; a copy at one phase (the
    /// operator's) settles at a quarter. Counted in gray rows, the warm-up of the
    /// debug build's kiosk ran on through the remote tests: event medians 47-56 ms
    /// and the flood test's 429s short of 50 in three runs of `--filter RemoteEndToEnd`.
    package static func prepareReach(viewportRows: Int, block: ChunkedTextBlock) -> Int {
        let budgetRows = block.cacheBudgetBytes / max(1, block.columnWidth * 4)
        return max(viewportRows, budgetRows * 2 / 3)
    }

    /// The scroll row `role`'s last drawn frame shows (tests: a glide's last frame landed).
    package func drawnOffsetRow(_ role: DisplayRole) -> Int? {
        lastInputs[role]?.prompter.offsetRow
    }

    /// The word at the reading line, for saving the reading position.
    package func wordIndex(atOffset offset: Double) -> Int? {
        readingText?.layout?.wordIndex(atY: offset)
    }

    /// Whether the display's next frame will differ from this one without any event.
    package func isAnimating(_ role: DisplayRole, controller: PrompterController, take: TakeIndicator = .none,
                             at time: Double) -> Bool {
        if case .countdown = take.shown(at: time) { return true }
        if controller.engine.isCountingDown(at: time) { return true }
        return controller.engine.isMoving(at: time) && controller.mode == .prompter
    }

    /// Draws the frame for `role` presented at `time` if anything it shows changed,
    /// and says what it showed. What it shows is one value, `SceneInput`: the prompter
    /// and the console as values at `time`, and what the renderer keeps of the camera's
    /// pictures; the scenes read that and nothing else, and an equal input is an equal
    /// frame.
    package func draw(_ role: DisplayRole, at time: Double, into target: FrameTarget, prompter: PrompterShown,
                      outerShowsContent: Bool, camera: CameraView = .none, inner: InnerView?,
                      take: TakeIndicator = .none) -> FrameReport {
        selfTestCards.forget(role)
        // Something other than this renderer wrote the buffers (a modeset, a blanked
        // display, a flip that failed): no buffer is known to hold its last frame.
        if target.mustDraw { forgetHeldFrames(role) }
        let takeShown = take.shown(at: time)
        let input = SceneInput(prompter: prompter, outerShowsContent: outerShowsContent,
                               camera: cameraKey(role, camera: camera), cameraOnOuter: camera.onOuter, take: takeShown,
                               prompting: promptingShown(role, prompter: prompter, take: takeShown),
                               inner: role == .inner ? inner : nil)
        var report = FrameReport(role: role, time: time)
        if target.preparing {
            // Ahead of its time: kept apart from what the display shows (`lastInputs`).
            guard lastInputs[role] != input, let buffer = scanout.image(for: target) else { return report }
            preparedInputs[role] = input
            report.changed = true
            return drawLayers(role, input, camera: camera, into: buffer, report: report)
        }
        if target.holdsPrepared, !target.mustDraw, preparedInputs[role] == input {
            // The frame drawn ahead is exactly this one: flip it as it is.
            preparedInputs[role] = nil
            lastInputs[role] = input
            report.changed = true
            report.fromPrepared = true
            return report
        }
        guard target.mustDraw || lastInputs[role] != input, let buffer = scanout.image(for: target) else { return report }
        preparedInputs[role] = nil
        lastInputs[role] = input
        report.changed = true
        return drawLayers(role, input, camera: camera, into: buffer, report: report)
    }

    /// Something other than this renderer may have written `role`'s buffers (a frame
    /// target with `mustDraw`): its scenes are composed whole into each next.
    package func forgetHeldFrames(_ role: DisplayRole) {
        compositors[role]?.forgetHeldFrames()
    }

    /// A self-test's card instead of the display's scenes; the scenes draw afresh after it.
    package func drawSelfTestCard(_ role: DisplayRole, _ card: SelfTestCardShown, transform: TextTransform,
                                  at time: Double, into target: FrameTarget) -> FrameReport {
        var report = FrameReport(role: role, time: time)
        lastInputs[role] = nil
        preparedInputs[role] = nil
        forgetHeldFrames(role)
        guard let buffer = scanout.image(for: target) else { return report }
        report.changed = selfTestCards.draw(role, card, transform: transform, at: time, into: buffer,
                                            mustDraw: target.mustDraw)
        report.selfTestCard = card
        return report
    }

    /// Composes the frame's layers into `buffer`.
    private func drawLayers(_ role: DisplayRole, _ input: SceneInput, camera: CameraView,
                            into buffer: BorrowedFrameBuffer, report: FrameReport) -> FrameReport {
        var report = report
        let prompter = input.prompter
        var layers: [Layer]
        switch role {
        case .outer:
            outerSize = buffer.size
            report.showsTapPause = prompter.pausedByTap && prompter.state == .paused
            outerPreviewTarget = nil
            if camera.onOuter && !prompter.blanked {
                outerPreviewTarget = PreviewTarget(size: buffer.size, mirrored: camera.mirror)
                // A held picture is not the newest frame: no camera latency is measured on it.
                report.cameraFrame = camera.holdPreview ? nil : camera.frame
                outerLabels?.beginFrame()
                layers = OuterCameraScene.layers(display: buffer.size, preview: self.camera.outerPreview(camera, size: buffer.size),
                                                 message: camera.message, overlay: camera.overlay, painter: painter,
                                                 labels: outerLabels, cueLabels: cueLabels)
            } else {
                layers = outerLayers(size: buffer.size, prompter: prompter)
            }
        case .inner:
            // Without fonts there is no console to draw, only its background.
            guard let labels, let inner = input.inner else {
                layers = [.fill(PixelRect(size: buffer.size), WidgetTheme(displayHeight: buffer.size.height).background)]
                break
            }
            layers = consoleLayers(inner, prompter: prompter, size: buffer.size, camera: camera, labels: labels,
                                   take: input.take, report: &report)
        }
        // The operator sees REC (the Record button counts down); in framing mode the
        // camera overlay carries the talent's marks.
        if role == .inner {
            if input.take == .recording {
                layers += TakeOverlay.layers(.recording, display: buffer.size, painter: painter, atRight: true)
            }
        } else if prompter.mode != .framing || prompter.blanked {
            layers += TakeOverlay.layers(input.take, display: buffer.size, painter: painter)
        }
        if prompter.mode == .prompter {
            layers += PromptingOverlay.layers(input.prompting, display: buffer.size, painter: painter)
        }
        // Each display redraws only what changed since the frame its buffer holds: the
        // console's changing parts; of scrolling text, the rows with ink before or after
        // (the spacing between lines and the margins stay).
        report.pixelsDrawn = compositors[role]?.compose(layers, into: buffer, onlyChanges: true) ?? 0
        return report
    }

    /// The prompter's marks for this frame: the countdown (not over a take's own) and the
    /// talent's remaining readout (not on a blanked display).
    private func promptingShown(_ role: DisplayRole, prompter: PrompterShown, take: TakeShown) -> PromptingOverlay.Shown {
        var shown = PromptingOverlay.Shown()
        if take == .none { shown.countdown = prompter.countdown }
        if role == .outer { shown.remaining = prompter.remainingClock }
        return shown
    }

    /// Camera changes only matter where the camera is shown: the outer display in
    /// framing mode or the game, and the inner display's thumbnail.
    private func cameraKey(_ role: DisplayRole, camera: CameraView) -> SceneCameraKey {
        guard role == .inner || camera.onOuter else { return SceneCameraKey(sequence: nil, message: nil, overlay: CameraOverlay()) }
        // The inner display's participant preview shows the outer's overlay too.
        var sequence = camera.frame.map { role == .inner ? $0.sequence / max(1, camera.innerCameraEvery) : $0.sequence }
        // A held picture: a newer camera frame changes nothing on the outer display.
        if role == .outer, camera.holdPreview, let shown = self.camera.shownPreviewSequence { sequence = shown }
        return SceneCameraKey(sequence: sequence, message: camera.message,
                         overlay: role == .outer || camera.onOuter ? camera.overlay : CameraOverlay())
    }

    /// Draws both cue letters off screen at the outer display's size, so the glyph and
    /// layout caches hold them for the cue's frame: laying out and rasterizing a letter
    /// that big took 0.1 to 0.9 s in the virtual rig (TCG), inside that frame. Called
    /// at Send of a Visual S/Z challenge, while its speech is synthesized elsewhere.
    package func warmCueBadge() {
        guard let painter else { return }
        if warmScratch?.size != outerSize { warmScratch = try? Canvas(size: outerSize) }
        guard let warmScratch else { return }
        for letter in CueLetter.allCases.compactMap(\.rawValue.first) {
            compositors[.outer]?.compose(CueBadge.layers(letter: letter, in: PixelRect(size: outerSize),
                                                         painter: painter, labels: cueLabels), into: warmScratch)
        }
    }

    /// The operator console, built from the frame's input; its targets go out in the
    /// report, for the clicks and focus moves that follow.
    private func consoleLayers(_ inner: InnerView, prompter: PrompterShown, size: PixelSize, camera: CameraView,
                               labels: LabelCache, take: TakeShown, report: inout FrameReport) -> [Layer] {
        var thumbnailRect: PixelRect?
        var model = ConsoleModel(
            state: inner.console, prompter: prompter, outer: inner.outer, cameraState: inner.cameraState,
            scriptPreview: { [unowned self] rect in self.previewLayers(in: rect, prompter: prompter) },
            cameraThumbnail: { [unowned self] rect in
                guard let painter = self.painter else { return [] }
                thumbnailRect = rect
                return self.camera.thumbnailLayers(camera, in: rect, painter: painter)
            },
            listing: inner.listing, game: inner.game, take: take, timers: inner.timers, follow: inner.follow,
            clips: inner.clips.map { clips in
                ClipsConsoleView(input: clips.input, replay: clips.replay,
                                 picture: { [unowned self] rect in
                                     self.replayCanvas.layers(clips.picture, of: clips.replay?.id ?? "", in: rect,
                                                              cue: clips.replay?.cue, painter: self.painter,
                                                              labels: self.cueLabels) })
            } ?? .none, dialogScript: inner.dialogScript, remote: inner.remote,
               controllers: inner.controllers)
        model.participantPreview = { [unowned self] rect in
            participant.layers(in: rect, outer: outerSize, camera: camera, painter: painter)
        }
        let panel = ConsoleView.panel(model, size: size, labels: labels)
        report.thumbnail = thumbnailRect
        report.console = ConsoleBuild(targets: panel.targets, labels: labels, theme: panel.theme)
        return panel.layers
    }

    private func previewLayers(in rect: PixelRect, prompter: PrompterShown) -> [Layer] {
        guard let scriptPreview, let readingText, let outerSize = appliedSize else {
            return [.fill(rect, prompter.settings.backgroundColor.color)]
        }
        return scriptPreview.layers(in: rect, outer: readingText, outerDisplay: outerSize, settings: prompter.settings,
                                    offset: prompter.offset,
                                    markerPosition: prompter.settings.readingLine.position(configured: markerPosition))
    }

    private func outerLayers(size: PixelSize, prompter: PrompterShown) -> [Layer] {
        let frame = PixelRect(size: size)
        if prompter.blanked { return [.fill(frame, Color(rgb: 0x000000))] }
        guard prompter.mode == .prompter, let readingText else {
            return [.fill(frame, prompter.settings.backgroundColor.color)]
        }
        return OuterPrompterScene.layers(display: size, prompter: prompter,
                                         markerPosition: prompter.settings.readingLine.position(configured: markerPosition),
                                         text: readingText)
    }
}
