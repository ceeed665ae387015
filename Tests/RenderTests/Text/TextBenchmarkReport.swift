import Foundation
import Testing
@testable import Render

/// Prints the layout figures; runs only when asked (RIG_TEXT_BENCH=1), in a release
/// build. It asserts nothing about speed: speed targets are benchmark figures.
@Test(.enabled(if: ProcessInfo.processInfo.environment["RIG_TEXT_BENCH"] == "1"))
func textLayoutBenchmarkReport() throws {
    let fonts = try FontLibrary()
    for (name, perParagraph) in [("paragraphs of 120 words", 120), ("one endless paragraph", 0)] {
        let text = TextBenchmarks.sampleScript(wordsPerParagraph: perParagraph)
        let figures = try TextBenchmarks.measureLayout(fonts: fonts, text: text)
        print("text layout, 10,000 words, 120 px, 1920 column, \(name): full \(figures.fullLayout) ms "
              + "(CPU \(figures.fullLayoutCPU) ms), "
              + "first screen \(figures.firstScreen) ms, \(figures.lineCount) lines (median of \(figures.runs))")
        #expect(figures.lineCount > 1000)
    }
}
