import Foundation
import Prompter
import Render

/// The outer layout's work between frames: laying a script out in slices, warming the
/// text caches while the outer display is idle, and keeping the reading position
/// through relayouts and restarts. It gives the controller the layout's maps.
final class LayoutWork {
    private let renderer: SceneRenderer
    private let controller: PrompterController
    private let problems: ProblemBoard
    private let now: () -> Double
    private let schedule: (Double, @escaping () -> Void) -> Void

    init(renderer: SceneRenderer, controller: PrompterController, problems: ProblemBoard, now: @escaping () -> Double,
         schedule: @escaping (Double, @escaping () -> Void) -> Void) {
        self.renderer = renderer
        self.controller = controller
        self.problems = problems
        self.now = now
        self.schedule = schedule
        controller.markerLayout = Self.markerLayout(renderer: renderer, controller: controller)
    }

    /// Lays the text out again for the outer display and keeps the reading position.
    func relayout(outerSize: PixelSize) {
        let time = now()
        let change = renderer.relayout(controller: controller, outerSize: outerSize)
        controller.layoutChanged(at: time, maxOffset: change.maxOffset, mapOffset: change.mapOffset)
        problems.set(change.weightNote.map { [$0] } ?? [], for: ProblemSource.fonts.detail("weight"))
        resumeIfOpenedAtTop(change, at: time)
        finishLayout(generation: renderer.layoutGeneration)
    }

    /// Lays out the rest of a long script a slice at a time between frames, then gives
    /// the engine the exact end. A newer relayout makes an older finisher stop.
    private func finishLayout(generation: Int) {
        schedule(now()) { [weak self] in
            guard let self, generation == self.renderer.layoutGeneration, self.renderer.readingText?.layout != nil
            else { return }
            if let height = self.renderer.continueLayout(lines: 200) {
                self.controller.layoutChanged(at: self.now(), maxOffset: height) { $0 }
            } else {
                self.finishLayout(generation: generation)
            }
        }
    }

    /// One piece of text per loop turn while the outer display is idle (`idleSize`
    /// gives its size then, nil while it moves or has no mode), so input and flips are
    /// never kept waiting behind a batch of rasterizing.
    func prepareAhead(pieces: Int, idleSize: @escaping () -> PixelSize?) {
        guard pieces > 0, let size = idleSize(), renderer.prepareAhead(outerSize: size) else { return }
        schedule(now()) { [weak self] in self?.prepareAhead(pieces: pieces - 1, idleSize: idleSize) }
    }

    /// A script opened at the top that was being read before a restart goes back to
    /// the same place: the saved offset when the layout is the same, else its word.
    private func resumeIfOpenedAtTop(_ change: SceneRenderer.Relayout, at time: Double) {
        guard let saved = controller.resume?.point(for: controller.script), saved.offset > 0, controller.engine.state == .stopped,
              controller.engine.offset(at: time) == 0 else { return }
        var target = saved.offset
        if let word = saved.wordIndex, let wordTop = change.offsetOfWord(word),
           abs(wordTop - saved.offset) > change.lineHeight {
            target = wordTop
        }
        controller.seek(to: target, at: time)
        KioskLog.info("resumed \(saved.scriptID) at \(Int(target)) px")
    }

    /// Opens the script read last (at its position), else the newest in the library.
    func openFirstScript() {
        guard let library = controller.library else { return }
        let time = now()
        let candidates = [controller.resume?.last?.scriptID].compactMap { $0 } + library.scripts().map(\.id)
        for id in candidates {
            do {
                try controller.open(id: id, at: time)
                return
            } catch {
                controller.addProblem("\(id): \(error)")
            }
        }
    }

    /// Saves the reading position once a second from now on.
    func saveResumeEverySecond() {
        guard controller.resume != nil else { return }
        schedule(now() + 1) { [weak self] in
            self?.saveResume()
            self?.saveResumeEverySecond()
        }
    }

    /// Saves where reading is, so a restart resumes there; cheap when nothing moved.
    func saveResume() {
        guard let script = controller.script, let resume = controller.resume else { return }
        let offset = controller.engine.offset(at: now())
        resume.save(ResumeState(scriptID: script.id, offset: offset, wordIndex: renderer.wordIndex(atOffset: offset)))
    }

    /// The outer layout's maps between text and scroll offsets, as the controller reads them.
    private static func markerLayout(renderer: SceneRenderer, controller: PrompterController) -> MarkerLayout {
        MarkerLayout(
            offsetOfText: { [weak renderer] offset in renderer?.readingText?.layout?.y(ofTextOffset: offset) ?? 0 },
            textAtOffset: { [weak renderer] y in
                guard let layout = renderer?.readingText?.layout else { return 0 }
                return layout.line(at: layout.lineIndex(atY: y))?.textRange.lowerBound ?? 0
            },
            wordsPerPixel: { [weak renderer, weak controller] in
                guard let layout = renderer?.readingText?.layout else { return nil }
                // The words the talent says: a direction is on the glass but not read.
                let words = controller?.script?.wordCount ?? layout.wordCount ?? 0
                let height = layout.totalHeight
                return height > 0 && words > 0 ? Double(words) / height : nil
            },
            lineIndex: { [weak renderer] y in renderer?.readingText?.layout?.lineIndex(atY: y) })
    }
}
