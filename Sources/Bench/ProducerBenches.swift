import Foundation
import Kiosk
import Render
import Stage

/// The cases that measure rig's own code: text layout, outer-frame composition,
/// time to first frame, camera conversion. A case that cannot run (no fonts, say)
/// is reported unavailable with the reason, never with a made-up number.
enum ProducerBenches {
    /// The reading margin in pixels for a column, as ReadingText computes it.
    static func margin(forColumn width: Int) -> Int {
        Int((Double(width) * OuterFrameBench.marginPercent / 100).rounded())
    }

    static func style(sizePx: Int) -> TextStyle {
        TextStyle(fontFamily: "Noto Sans", fontSize: Double(sizePx), lineSpacing: OuterFrameBench.lineSpacing)
    }

    static func fonts() -> Result<FontLibrary, BenchSetupError> {
        do { return .success(try FontLibrary()) } catch { return .failure(.init("fonts: \(error)")) }
    }

    static func layout(text: String, plan: BenchPlan, fonts: FontLibrary) -> [BenchReport.LayoutFigure] {
        let display = BenchReport.Display.fullHD
        let column = Double(display.width - 2 * Self.margin(forColumn: display.width))
        return BenchPlan.sizes.map { size in
            var lines: Int?
            var samples: [Double] = []
            do {
                for _ in 0..<plan.layoutRepeats {
                    let (layout, ms) = try BenchClock.onceMs { () throws(TextError) -> TextLayout in
                        let layout = try TextLayout(text: text, style: Self.style(sizePx: size),
                                                    columnWidth: column, fonts: fonts)
                        layout.layoutAll()
                        return layout
                    }
                    samples.append(ms)
                    lines = layout.lineCount
                }
            } catch {
                return .init(display: display, sizePx: size, lines: nil, result: .unavailable("layout: \(error)"))
            }
            return .init(display: display, sizePx: size, lines: lines, result: BenchMeasurement(samplesMs: samples))
        }
    }

    /// Whole-text layout of the right-to-left and CJK samples (bidi, Arabic joining,
    /// CJK line breaking) at 60 px in the 1920 px column.
    static func sampleLayouts(directory: String, plan: BenchPlan,
                              fonts: FontLibrary) -> [BenchReport.SampleLayoutFigure] {
        let width = BenchReport.Display.fullHD.width
        let column = Double(width - 2 * margin(forColumn: width))
        let size = BenchEnvironment.sampleSizePx
        return BenchEnvironment.samples.map { sample in
            func figure(_ lines: Int?, _ result: BenchMeasurement) -> BenchReport.SampleLayoutFigure {
                .init(file: sample.file, script: sample.script, sizePx: size, lines: lines, result: result)
            }
            guard let data = FileManager.default.contents(atPath: directory + "/texts/" + sample.file),
                  let text = String(data: data, encoding: .utf8) else {
                return figure(nil, .unavailable("cannot read bench/texts/\(sample.file)"))
            }
            var lines: Int?
            var samples: [Double] = []
            do {
                for _ in 0..<plan.layoutRepeats * 2 {
                    let (layout, ms) = try BenchClock.onceMs { () throws(TextError) -> TextLayout in
                        let layout = try TextLayout(text: text, style: style(sizePx: size), columnWidth: column,
                                                    fonts: fonts)
                        layout.layoutAll()
                        return layout
                    }
                    samples.append(ms)
                    lines = layout.lineCount
                }
            } catch {
                return figure(nil, .unavailable("layout: \(error)"))
            }
            return figure(lines, BenchMeasurement(samplesMs: samples))
        }
    }

    /// Opening the script to its first composed frame at the top, as the kiosk does it
    /// (a new stage with the script opened: layout, the chunked block, the engine told
    /// the script's length, the first pieces rasterized with a cold glyph cache). The
    /// font library is loaded once at start-up, so it is shared.
    static func firstFrame(text: String, plan: BenchPlan, fonts: FontLibrary) -> [BenchReport.FirstFrameFigure] {
        BenchReport.Display.all.flatMap { display in
            BenchPlan.sizes.map { size in
                var samples: [Double] = []
                do {
                    for _ in 0..<plan.firstFrameRepeats {
                        let start = BenchClock.nanoseconds()
                        let outer = try OuterFrameBench(display: display, text: text, sizePx: size,
                                                        transform: .identity, fonts: fonts)
                        outer.composeFrame()
                        samples.append(Double(BenchClock.nanoseconds() - start) / 1e6)
                    }
                } catch {
                    return .init(display: display, sizePx: size, result: .unavailable("\(error)"))
                }
                return .init(display: display, sizePx: size, result: BenchMeasurement(samplesMs: samples))
            }
        }
    }

    static func composition(text: String, plan: BenchPlan, fonts: FontLibrary,
                            progress: (String) -> Void) -> [BenchReport.CompositionFigure] {
        var figures: [BenchReport.CompositionFigure] = []
        for display in BenchReport.Display.all {
            for size in BenchPlan.sizes {
                progress("composition \(display) \(size) px")
                // One opened script per (display, size); each transform is applied the
                // way the operator's keys apply it.
                var opened: OuterFrameBench?
                for transform in plan.transforms {
                    do {
                        let outer: OuterFrameBench
                        if let opened {
                            outer = opened
                            try outer.setTransform(transform)
                        } else {
                            outer = try OuterFrameBench(display: display, text: text, sizePx: size,
                                                        transform: transform, fonts: fonts)
                            opened = outer
                        }
                        let (result, pieces) = measure(outer, plan: plan)
                        figures.append(.init(display: display, sizePx: size, transform: transform,
                                             result: result, piecesRasterized: pieces))
                    } catch {
                        figures.append(.init(display: display, sizePx: size, transform: transform,
                                             result: .unavailable("\(error)")))
                    }
                }
            }
        }
        return figures
    }

    /// Speeds whose row phase changes every frame at 60 Hz (5/6 and 11/6 px a frame),
    /// where 180 px/s moves by whole pixels and so copies one phase: each frame then
    /// draws a phase other than the frame before's (quarter turns: from another
    /// window, rolled along further).
    static let phaseSpeeds = [50, 110]
    static let phaseSpeedSize = 60

    /// The composition at `phaseSpeeds`, upright and turned a quarter, 60 px.
    static func compositionAtPhaseSpeeds(text: String, plan: BenchPlan, fonts: FontLibrary,
                                         progress: (String) -> Void) -> [BenchReport.CompositionFigure] {
        let transforms: [BenchReport.Transform] = [.identity, .init(mirror: false, flip: false, rotation: 90)]
        return BenchReport.Display.all.flatMap { display in
            phaseSpeeds.flatMap { speed in
                progress("composition \(display) \(phaseSpeedSize) px at \(speed) px/s")
                return transforms.map { transform -> BenchReport.CompositionFigure in
                    do {
                        let outer = try OuterFrameBench(display: display, text: text, sizePx: phaseSpeedSize,
                                                        transform: transform, speed: speed, fonts: fonts)
                        // Warmed up through a frame per phase, as the kiosk's idle warm-up
                        // prepares them before play: the timed frames are the steady state.
                        let (result, pieces) = measure(outer, plan: plan,
                                                       warmup: max(plan.composeWarmup, ChunkedTextBlock.rowPhases))
                        return .init(display: display, sizePx: phaseSpeedSize, transform: transform, result: result,
                                     piecesRasterized: pieces, speed: speed)
                    } catch {
                        return .init(display: display, sizePx: phaseSpeedSize, transform: transform,
                                     result: .unavailable("\(error)"), speed: speed)
                    }
                }
            }
        }
    }

    /// The frames' times and the text pieces the frames rasterized (the kiosk
    /// rasterizes a piece in the frame that first shows it).
    static func measure(_ outer: OuterFrameBench, plan: BenchPlan, warmup: Int? = nil) -> (BenchMeasurement, Int) {
        outer.scrollToMiddle()
        for _ in 0..<(warmup ?? plan.composeWarmup) {
            outer.composeFrame()
            outer.advance()
        }
        var samples: [Double] = []
        samples.reserveCapacity(plan.composeFrames)
        var pieces = 0
        for _ in 0..<plan.composeFrames {
            let before = outer.block?.rasterizedPieceCount ?? 0
            let start = BenchClock.nanoseconds()
            outer.composeFrame()
            samples.append(Double(BenchClock.nanoseconds() - start) / 1e6)
            pieces += (outer.block?.rasterizedPieceCount ?? 0) - before
            outer.advance()
        }
        return (BenchMeasurement(samplesMs: samples), pieces)
    }

    /// The operator console built and composed per frame while the prompter plays.
    static func console(text: String, plan: BenchPlan) -> [BenchReport.ConsoleFigure] {
        BenchReport.Display.all.map { display in
            do {
                let console = try ConsoleFrameBench(display: display, text: text)
                let samples = BenchClock.sampleMs(frames: plan.composeFrames, warmup: plan.composeWarmup) {
                    console.composeFrame()
                    console.advance()
                }
                return .init(display: display, result: BenchMeasurement(samplesMs: samples),
                             drawnShare: console.drawnShare / Double(max(1, console.frames)))
            } catch {
                return .init(display: display, result: .unavailable("\(error)"), drawnShare: nil)
            }
        }
    }

    static func camera(frames: Int) -> BenchMeasurement {
        do {
            let camera = try CameraBench()
            return BenchMeasurement(samplesMs: try BenchClock.sampleMs(frames: frames, warmup: 5) {
                try camera.convertFrame()
            })
        } catch {
            return .unavailable("camera conversion: \(error)")
        }
    }
}
