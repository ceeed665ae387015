import Foundation
@testable import Render

/// Timings of the text layout for the RIG_TEXT_BENCH report: the whole of a
/// 10,000-word script at 120 px in a 1920-px column, and the first screen of it.
/// Figures, not tests; test support, not Render's API.
enum TextBenchmarks {
    struct Figures: Sendable {
        /// Milliseconds, each the median of the runs.
        var fullLayout: Double
        var firstScreen: Double
        /// CPU time of the thread for the full layout: steadier than wall time when
        /// other processes share the cores.
        var fullLayoutCPU: Double
        var lineCount: Int
        var runs: Int
    }

    /// A deterministic script of `words` English words in paragraphs of
    /// `wordsPerParagraph` (0: one endless paragraph).
    static func sampleScript(words: Int = 10_000, wordsPerParagraph: Int = 120) -> String {
        let vocabulary = """
            the a of and to in is you that it he was for on are as with his they I at be this have from \
            or one had by word but not what all were we when your can said there use an each which she do \
            how their if will up other about out many then them these so some her would make like him into \
            time has look two more write go see number no way could people my than first water been call \
            who oil its now find long down day did get come made may part camera teleprompter script \
            audience rehearsal studio tonight welcome everyone thank presentation
            """.split(separator: " ").map(String.init)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var text = ""
        text.reserveCapacity(words * 6)
        for i in 0..<words {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var word = vocabulary[Int(state >> 33) % vocabulary.count]
            if i % 14 == 13 { word += "." } else if i % 9 == 8 { word += "," }
            text += word
            if i + 1 < words {
                text += wordsPerParagraph > 0 && i % wordsPerParagraph == wordsPerParagraph - 1 ? "\n" : " "
            }
        }
        return text
    }

    static func measureLayout(fonts: FontLibrary, text: String, style: TextStyle = TextStyle(fontSize: 120),
                                     columnWidth: Double = 1920, screenHeight: Double = 1080,
                                     runs: Int = 9) throws(TextError) -> Figures {
        var full: [Double] = [], first: [Double] = [], cpu: [Double] = []
        var lineCount = 0
        for _ in 0..<max(1, runs) {
            let cpuStart = threadCPUTime()
            let start = DispatchTime.now().uptimeNanoseconds
            let layout = try TextLayout(text: text, style: style, columnWidth: columnWidth, fonts: fonts)
            layout.ensureLaidOut(throughY: screenHeight)
            let screen = DispatchTime.now().uptimeNanoseconds
            layout.layoutAll()
            let end = DispatchTime.now().uptimeNanoseconds
            cpu.append(threadCPUTime() - cpuStart)
            first.append(Double(screen - start) / 1e6)
            full.append(Double(end - start) / 1e6)
            lineCount = layout.lineCount
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return Figures(fullLayout: median(full), firstScreen: median(first), fullLayoutCPU: median(cpu),
                       lineCount: lineCount, runs: runs)
    }

    private static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
    }
}
