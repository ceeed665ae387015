import Kiosk
import Stage

/// Everything one `rig bench` run measured, and its JSON form (schema "rig-bench/1",
/// documented in bench/README.md). Ratios are derived here, from the figures, so the
/// JSON and the table can never disagree.
struct BenchReport: Sendable {
    static let schema = "rig-bench/1"

    struct Display: Hashable, Sendable, CustomStringConvertible {
        var width: Int
        var height: Int
        static let fullHD = Display(width: 1920, height: 1080)
        static let uhd = Display(width: 3840, height: 2160)
        static let all = [fullHD, uhd]
        var description: String { "\(width)x\(height)" }
        var frameBytes: Int { width * height * 4 }
    }

    struct Machine: Sendable {
        var cpuModel: String
        var processors: Int
        var kernel: String
    }

    struct Transform: Hashable, Sendable, CustomStringConvertible {
        var mirror: Bool
        var flip: Bool
        var rotation: Int
        static let identity = Transform(mirror: false, flip: false, rotation: 0)
        /// All 16 combinations, identity first.
        static let all: [Transform] = [0, 90, 180, 270].flatMap { r in
            [false, true].flatMap { m in [false, true].map { Transform(mirror: m, flip: $0, rotation: r) } }
        }
        var description: String {
            var parts: [String] = []
            if mirror { parts.append("mirror") }
            if flip { parts.append("flip") }
            if rotation != 0 { parts.append("rot\(rotation)") }
            return parts.isEmpty ? "identity" : parts.joined(separator: "+")
        }
    }

    struct FloorFigure: Sendable { var display: Display; var result: BenchMeasurement }
    struct CompositionFigure: Sendable {
        var display: Display; var sizePx: Int; var transform: Transform; var result: BenchMeasurement
        /// Text pieces the timed frames rasterized: a new piece scrolling in costs its
        /// frame a rasterization; one every frame would mean the cache is thrashing.
        var piecesRasterized: Int? = nil
        /// The scroll speed in px/s (OuterFrameBench.speed unless a phase-speed row).
        var speed = OuterFrameBench.speed
    }
    struct LayoutFigure: Sendable {
        var display: Display; var sizePx: Int; var lines: Int?; var result: BenchMeasurement
    }
    struct SampleLayoutFigure: Sendable {
        var file: String; var script: String; var sizePx: Int; var lines: Int?; var result: BenchMeasurement
    }
    struct FirstFrameFigure: Sendable { var display: Display; var sizePx: Int; var result: BenchMeasurement }
    /// The inner console (operator view, playing) on a display of this size.
    struct ConsoleFigure: Sendable {
        var display: Display
        var result: BenchMeasurement
        /// The mean share of the display's pixels a frame drew (only what changed).
        var drawnShare: Double?
    }

    struct PangoCase: Sendable {
        var mode: String; var display: String; var sizePx: Int; var lines: Int?; var result: BenchMeasurement
    }
    struct PangoLayout: Sendable { var display: String; var sizePx: Int; var lines: Int?; var result: BenchMeasurement }
    struct PangoSample: Sendable { var file: String; var lines: Int?; var result: BenchMeasurement }
    enum PangoPeer: Sendable {
        case ran(version: String, layout: [PangoLayout], cases: [PangoCase], samples: [PangoSample])
        case unavailable(String)
    }
    struct Camera: Sendable {
        var frame: String
        var ours: BenchMeasurement
        var gstreamer: BenchMeasurement
        var gstreamerVersion: String?
    }
    struct Speech: Sendable {
        var instruction: String
        var words: Int
        /// Seconds of speech the instruction makes.
        var duration: Double?
        var synthesis: BenchMeasurement
        /// Process CPU seconds per second of speech (median); 1/this is "x real time".
        var cpuPerSpeechSecond: Double?
        var speakToFirstSample: BenchMeasurement
        var device: String
    }
    /// Peak resident memory (VmHWM) in KiB of each process; nil when not measured.
    struct Memory: Sendable { var rigKiB: Int?; var pangoKiB: Int?; var gstreamerKiB: Int? }

    var command: String
    var isReleaseBuild: Bool
    var quick: Bool
    var machine: Machine
    var textFile: String
    var textWords: Int
    var floor: [FloorFigure] = []
    var composition: [CompositionFigure] = []
    /// The same at speeds whose row phase changes every frame (ProducerBenches.phaseSpeeds).
    var compositionAtPhaseSpeeds: [CompositionFigure] = []
    var layout: [LayoutFigure] = []
    var sampleLayout: [SampleLayoutFigure] = []
    var firstFrame: [FirstFrameFigure] = []
    var pango: PangoPeer = .unavailable("not run")
    var camera: Camera?
    var speech: Speech?
    var follow: Result<FollowBench.Figures, FollowPassageError>?
    var recordingLoad: Result<RecordingLoadBench.Figures, RecordingLoadBench.Failure>?
    var memory: Memory?
    var console: [ConsoleFigure] = []
    var markup: MarkupBench.Figures?
    /// The smoothness case's figures, or why it could not run.
    var smoothness: Result<ScrollSmoothnessTable.Figures, BenchSetupError>?
    /// The same measure on a running headless kiosk's shown frames, or why it could not run.
    var kioskSmoothness: Result<[KioskSmoothnessBench.Row], BenchSetupError>?

    func floorMedian(_ display: Display) -> Double? {
        floor.first { $0.display == display }?.result.medianMs
    }

    /// Our composition median for the peer comparison: the upright text, as the peer draws it.
    func composeMedian(_ display: Display, sizePx: Int) -> Double? {
        composition.first { $0.display == display && $0.sizePx == sizePx && $0.transform == .identity }?
            .result.medianMs
    }

    func pangoMedian(mode: String, display: Display, sizePx: Int) -> Double? {
        guard case let .ran(_, _, cases, _) = pango else { return nil }
        return cases.first { $0.mode == mode && $0.display == display.description && $0.sizePx == sizePx }?
            .result.medianMs
    }

    func pangoLayoutMedian(sizePx: Int) -> Double? {
        guard case let .ran(_, layouts, _, _) = pango else { return nil }
        return layouts.first { $0.sizePx == sizePx }?.result.medianMs
    }

    func pangoSampleMedian(file: String) -> Double? {
        guard case let .ran(_, _, _, samples) = pango else { return nil }
        return samples.first { $0.file == file }?.result.medianMs
    }

    /// One row per (display, size): our upright composition against both peer modes.
    struct PangoComparison: Sendable {
        var display: Display; var sizePx: Int
        var ours: Double?; var naive: Double?; var good: Double?
        var ratioToNaive: Double? { BenchStatistics.ratio(ours, to: naive) }
        var ratioToGood: Double? { BenchStatistics.ratio(ours, to: good) }
    }

    func pangoComparisons(sizes: [Int]) -> [PangoComparison] {
        Display.all.flatMap { display in
            sizes.map { size in
                PangoComparison(display: display, sizePx: size, ours: composeMedian(display, sizePx: size),
                                naive: pangoMedian(mode: "naive", display: display, sizePx: size),
                                good: pangoMedian(mode: "good", display: display, sizePx: size))
            }
        }
    }

    var sizes: [Int] {
        let all = composition.map(\.sizePx) + layout.map(\.sizePx)
        return Array(Set(all.isEmpty ? BenchPlan.sizes : all)).sorted()
    }
}
