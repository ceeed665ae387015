@testable import Render
import Stage
import Testing
@testable import Kiosk

/// `[prompter] cache_mb`: unset (0), the reading text's cache is as large as the outer
/// display asks, so a 4K display gets sixteenth-pixel phases for white text on black and
/// quarter-pixel ones in colour; set, it is what it says.
@Suite struct TextCacheConfigTests {
    @Test func unsetTheBudgetFollowsTheDisplay() {
        #expect(RigConfig().prompter.cacheMB == 0)
        #expect(RigStage.Settings(config: RigConfig()).cacheBudgetBytes == nil)
        let mib = 1 << 20
        func automatic(_ width: Int, _ height: Int, gray: Bool = false) -> Int {
            TextCacheBudget.automatic(forDisplay: PixelSize(width: width, height: height),
                                      pieceBytesPerPixel: gray ? 1 : 4)
        }
        let fullHD = automatic(1920, 1080), qhd = automatic(2560, 1440), uhd = automatic(3840, 2160)
        let eightK = automatic(7680, 4320)
        #expect(fullHD / mib == 241)
        #expect(qhd / mib == 210)
        #expect(uhd / mib == 159)
        #expect(eightK == 128 * mib)
        // Gray text (white on black) from a quarter of the default: 80 MiB at 1080p,
        // 239 MiB at 4K (for twelve phases turned).
        let grayFullHD = automatic(1920, 1080, gray: true), grayQHD = automatic(2560, 1440, gray: true)
        let grayUHD = automatic(3840, 2160, gray: true), grayEightK = automatic(7680, 4320, gray: true)
        #expect(grayFullHD / mib == 80)
        #expect(grayUHD / mib == 239)
        #expect(automatic(640, 360, gray: true) == 32 * mib)
        // What each budget buys, upright and turned a quarter (a screen of pieces and a
        // window a phase): in colour 16 and 12 phases at 1080p, 12 and 4 at 1440p, 4
        // (quarter pixels) and 2 at 4K, whole pixels at 8K (2 phases would take more);
        // in gray 16 and 16 at 1080p and 1440p, 16 and 12 at 4K, 4 and 2 at 8K. Never
        // more than twice the default.
        for (size, budget, grayBudget, colour, gray) in [
            (PixelSize(width: 1920, height: 1080), fullHD, grayFullHD, (16, 12), (16, 16)),
            (PixelSize(width: 2560, height: 1440), qhd, grayQHD, (12, 4), (16, 16)),
            (PixelSize(width: 3840, height: 2160), uhd, grayUHD, (4, 2), (16, 12)),
            (PixelSize(width: 7680, height: 4320), eightK, grayEightK, (1, 1), (4, 2)),
        ] {
            let screen = size.width * size.height * 4
            let window = QuarterTurnWindow.byteCount(frameSize: size)
            #expect(TextCacheBudget.phases(budget: budget, screenBytes: screen) == colour.0, "\(size)")
            #expect(TextCacheBudget.phases(budget: budget, screenBytes: screen + window) == colour.1, "\(size)")
            #expect(TextCacheBudget.rowPhases(forDisplay: size, budget: budget) == colour.0, "\(size)")
            #expect(TextCacheBudget.rowPhases(forDisplay: size, budget: grayBudget, pieceBytesPerPixel: 1) == gray.0,
                    "\(size)")
            #expect(TextCacheBudget.phases(budget: grayBudget, screenBytes: screen / 4 + window / 4) == gray.1,
                    "\(size)")
            #expect(budget <= 2 * ChunkedTextBlock.defaultCacheBudgetBytes)
            #expect(grayBudget <= 2 * ChunkedTextBlock.defaultCacheBudgetBytes)
        }
        // 4K in the old fixed 128 MB: half pixels.
        #expect(TextCacheBudget.phases(budget: 128 * mib, screenBytes: 3840 * 2160 * 4) == 2)
    }

    /// The stage sizes the budget from the outer display it draws: a 4K frame of white
    /// text on black (pieces a byte a pixel) is drawn at sixteenths of a pixel without
    /// anything in rig.toml; yellow text (pieces in colour) at quarters.
    @Test func aFourKOuterDisplayScrollsInSixteenthsOfAPixel() throws {
        let size = PixelSize(width: 3840, height: 2160)
        let rig = ManualClockStage(settings: RigStage.Settings(outerSize: size), innerSize: PixelSize(width: 640, height: 360),
                                   fonts: try FontLibrary())
        rig.open(id: "4k", title: "4K", text: "A short script for a large display.\n\nIt scrolls in sixteenths of a pixel.")
        rig.finishLayout()
        _ = try rig.canvas(.outer, at: rig.clock.now)
        let block = try #require(rig.stage.renderer.readingText?.block)
        #expect(block.cacheBudgetBytes == TextCacheBudget.automatic(forDisplay: size, pieceBytesPerPixel: 1))
        #expect(block.pieceBytesPerPixel == 1)
        #expect(block.rowPhasesDrawn == 16)
        #expect(block.cachedBytes <= block.cacheBudgetBytes)
        rig.controller.updateSettings { $0.textColor = .yellow }
        _ = try rig.canvas(.outer, at: rig.clock.now)
        let yellow = try #require(rig.stage.renderer.readingText?.block)
        #expect(yellow.pieceBytesPerPixel == 4)
        #expect(yellow.cacheBudgetBytes == TextCacheBudget.automatic(forDisplay: size))
        #expect(yellow.rowPhasesDrawn == 4)
    }

    @Test func setItIsWhatItSaysAndTooLittleIsRefusedWithItsPlace() {
        let set = ConfigLoader.load(text: "[prompter]\ncache_mb = 64\n", name: "rig.toml")
        #expect(set.problems.isEmpty)
        #expect(RigStage.Settings(config: set.config).cacheBudgetBytes == 64 << 20)
        let automatic = ConfigLoader.load(text: "[prompter]\ncache_mb = 0\n", name: "rig.toml")
        #expect(automatic.problems.isEmpty)
        #expect(RigStage.Settings(config: automatic.config).cacheBudgetBytes == nil)
        let small = ConfigLoader.load(text: "[prompter]\ncache_mb = 8\n", name: "rig.toml")
        #expect(small.errors.map(\.description) == [
            "rig.toml:2:12: prompter.cache_mb must be 0 (as the display asks) or between 16 and 1024, found 8",
        ])
    }
}
