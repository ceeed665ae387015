import Foundation
import Prompter
import Render

/// The stage's work between frames: laying a script out in slices, warming the text
/// caches while idle, and keeping the reading position for a restart.
extension RigStage {
    /// The outer display's size: its mode once known, else the configured size.
    package var outerSize: PixelSize {
        displays[.outer]?.mode.map { PixelSize(width: $0.width, height: $0.height) } ?? settings.outerSize
    }

    /// Lays the text out again for the outer display and keeps the reading position.
    package func relayout() {
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

    /// One piece of text per loop turn while the outer display is idle, so input and
    /// flips are never kept waiting behind a batch of rasterizing.
    package func prepareAheadWhileIdle(pieces: Int) {
        guard pieces > 0, let mode = displays[.outer]?.mode, !isAnimating(.outer, at: now()),
              renderer.prepareAhead(outerSize: PixelSize(width: mode.width, height: mode.height)) else { return }
        schedule(now()) { [weak self] in self?.prepareAheadWhileIdle(pieces: pieces - 1) }
    }

    /// A script opened at the top that was being read before a restart goes back to
    /// the same place: the saved offset when the layout is the same, else its word.
    private func resumeIfOpenedAtTop(_ change: SceneRenderer.Relayout, at time: Double) {
        guard let saved = controller.resumePoint, saved.offset > 0, controller.engine.state == .stopped,
              controller.engine.offset(at: time) == 0 else { return }
        var target = saved.offset
        if let word = saved.wordIndex, let wordTop = change.offsetOfWord(word),
           abs(wordTop - saved.offset) > change.lineHeight {
            target = wordTop
        }
        controller.seek(to: target, at: time)
        KioskLog.info("resumed \(saved.scriptID) at \(Int(target)) px")
    }

    // MARK: start and stop

    /// Opens the script read last (at its position), else the newest in the library,
    /// and starts saving the reading position once a second.
    package func start() {
        openFirstScript()
        game.restore()
        scheduleResumeSaves()
        tickConsoleClock()
        if settings.followAtStart { follow.startAtBoot() }
    }

    /// Saves the reading position and waits for the state writes (at shutdown).
    package func stop() {
        follow.stop()
        // A running attempt ends as the shutdown's interruption, its speech cancelled.
        game.receive(.interrupt(.shutdown))
        saveResume()
        controller.flushStateWrites()
    }

    private func openFirstScript() {
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

    private func scheduleResumeSaves() {
        guard controller.resume != nil else { return }
        schedule(now() + 1) { [weak self] in
            self?.saveResume()
            self?.scheduleResumeSaves()
        }
    }

    private func saveResume() {
        let time = now()
        controller.saveResume(at: time, wordIndex: renderer.wordIndex(atOffset: controller.engine.offset(at: time)))
    }
}
