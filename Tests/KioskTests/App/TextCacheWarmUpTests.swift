import Foundation
import Prompter
import Render
import Testing
@testable import Kiosk
@testable import Stage

/// The kiosk's idle time fills the outer text cache to the size it settles at (the
/// whole text at each row phase the frames choose from when that fits the budget,
/// else the budget), so the process's memory stops
/// growing right after a script is opened instead of a piece at a time as scrolling
/// first reaches each one (issue 9's soak: RSS flat after the first minute).
@Suite(.serialized) struct TextCacheWarmUpTests {
    private func makeApp(script: String, others: [String: String] = [:], overrides: [String] = []) throws -> KioskApp {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-warm-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        try Data(script.utf8).write(to: root.appendingPathComponent("scripts/Take.txt"))
        for (name, text) in others { try Data(text.utf8).write(to: root.appendingPathComponent("scripts/\(name)")) }
        let loaded = ConfigLoader.load(text: "", name: "test", overrides: [
            "state.dir=\"\(root.path)\"", "control.socket=\"\(root.path)/control.sock\"",
            "displays.headless_width=480", "displays.headless_height=270", "prompter.font_size=24",
            "camera.enabled=false",
        ] + overrides)
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        let app = try KioskApp(config: loaded.config, configProblems: [], backend: .headless, devices: [])
        app.start()
        return app
    }

    /// Runs the loop until `condition` holds, failing after a deadline.
    private func run(_ app: KioskApp, seconds: Double = 20, until condition: () -> Bool,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        let deadline = app.loop.clock() + seconds
        while !condition() && app.loop.clock() < deadline { app.loop.runOnce(timeout: 0.02) }
        #expect(condition(), "condition not reached in \(seconds) s", sourceLocation: sourceLocation)
    }

    private func outerBlock(_ app: KioskApp) -> ChunkedTextBlock? { app.stage.renderer.readingText?.block }

    @Test func aScriptThatFitsTheBudgetIsCachedWholeBeforePlay() throws {
        // About 5,000 text rows at 24 px on 480 px: seven chunks, eighteen screens,
        // far past the next screens, and at each of the 16 row phases (the text
        // scrolls by sixteenths of a pixel) inside 192 MiB.
        let app = try makeApp(script: String(repeating: "Read these words at a steady pace. ", count: 100),
                              overrides: ["prompter.cache_mb=192"])
        defer { app.shutdown() }
        run(app) { app.displaysBackend.status(of: .outer).flips > 0 }
        let block = try #require(outerBlock(app))
        #expect(block.rowPhasesDrawn == ChunkedTextBlock.rowPhases)
        // White on black: the pieces are kept a byte a pixel.
        #expect(block.pieceBytesPerPixel == 1)
        let wholeText = block.measureContentHeight() * block.columnWidth * block.pieceBytesPerPixel
        #expect(wholeText > 8 * 270 * block.columnWidth * block.pieceBytesPerPixel, "the script must reach well past the screen")
        #expect(wholeText * block.rowPhasesDrawn < block.cacheBudgetBytes)
        run(app) { block.cachedBytes >= wholeText * block.rowPhasesDrawn }
        // Scrolling through all of it, at every phase, then rasterizes nothing more:
        // memory stays put.
        let rasterized = block.rasterizedPieceCount
        let end = app.stage.controller.engine.maxOffset
        for step in 1...10 {
            let offset = min(end, end * Double(step) / 10 + Double(step % 8) / 8)
            app.stage.controller.seek(to: offset, at: app.loop.clock())
            let flips = app.displaysBackend.status(of: .outer).flips
            run(app) { app.displaysBackend.status(of: .outer).flips > flips }
        }
        #expect(block.rasterizedPieceCount == rasterized)
    }

    @Test func aLongerScriptFillsTheBudgetAndNoMore() throws {
        // Long enough to be over twice the budget even a byte a pixel (white on black).
        let app = try makeApp(script: String(repeating: "Read these words at a steady pace. ", count: 3_000),
                              overrides: ["prompter.cache_mb=16"])
        defer { app.shutdown() }
        run(app) { app.displaysBackend.status(of: .outer).flips > 0 }
        let block = try #require(outerBlock(app))
        #expect(block.measureContentHeight() * block.columnWidth * block.pieceBytesPerPixel > 2 * block.cacheBudgetBytes)
        // Room for a piece: kept gray (white on black), the piece and the colour canvas
        // it is painted in.
        let painted = block.pieceRows * block.columnWidth * 4
        let largestPiece = painted + (block.pieceBytesPerPixel == 1 ? painted / 4 : 0)
        // Full: no room left for another piece. The band's strips are not in the budget.
        run(app) { block.cachedBytes - block.highlightStripBytes > block.cacheBudgetBytes - largestPiece }
        #expect(block.cachedBytes - block.highlightStripBytes - block.cacheBudgetBytes < largestPiece,
                "\(block.cachedBytes) bytes cached, \(block.highlightStripBytes) in strips")
    }

    @Test func aNewScriptsFirstFrameComesBeforeItsWarmUp() throws {
        let words = String(repeating: "Read these words at a steady pace. ", count: 100)
        let app = try makeApp(script: words, others: ["Other.txt": "Other " + words],
                              overrides: ["prompter.cache_mb=192"])
        defer { app.shutdown() }
        run(app) { app.displaysBackend.status(of: .outer).flips > 0 }
        let outer = PixelSize(width: 480, height: 270)
        // The newest script opened at start (either, written in the same instant): the other one now.
        let next = app.stage.controller.script?.id == "Other.txt" ? "Take.txt" : "Other.txt"
        try app.stage.controller.open(id: next, at: app.loop.clock())
        let block = try #require(outerBlock(app))
        #expect(app.stage.controller.script?.id == next)
        // Laid out, not drawn yet: idle time must leave the first frame's work alone.
        #expect(!app.stage.renderer.prepareAhead(outerSize: outer))
        #expect(block.rasterizedPieceCount == 0)
        let flips = app.displaysBackend.status(of: .outer).flips
        run(app) { app.displaysBackend.status(of: .outer).flips > flips }
        run(app) { block.cachedBytes >= block.measureContentHeight() * block.columnWidth * block.pieceBytesPerPixel * block.rowPhasesDrawn }
    }

    @Test func theOperatorsCopyWarmsUpToo() throws {
        let app = try makeApp(script: String(repeating: "Read these words at a steady pace. ", count: 100),
                              overrides: ["prompter.cache_mb=16"])
        defer { app.shutdown() }
        run(app) { app.displaysBackend.status(of: .inner).flips > 0 }
        let block = try #require(app.stage.renderer.scriptPreview?.block)
        let wholeText = block.measureContentHeight() * block.columnWidth * block.pieceBytesPerPixel
        let budget = min(wholeText, block.cacheBudgetBytes)
        // Filled to where it settles while idle, without a single scrolled frame.
        run(app) { block.cachedBytes >= budget * 2 / 3 }
        #expect(app.stage.controller.engine.offset(at: app.loop.clock()) == 0)
    }
}
