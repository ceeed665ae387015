@testable import Render
import Stage
import Testing
@testable import Kiosk

/// `[prompter] cache_mb`: unset (0), the reading text's cache is as large as the outer
/// display asks, so a 4K display gets quarter-pixel phases; set, it is what it says.
@Suite struct TextCacheConfigTests {
    @Test func unsetTheBudgetFollowsTheDisplay() {
        #expect(RigConfig().prompter.cacheMB == 0)
        #expect(RigStage.Settings(config: RigConfig()).cacheBudgetBytes == nil)
        let mib = 1 << 20
        let fullHD = TextCacheBudget.automatic(forDisplay: PixelSize(width: 1920, height: 1080))
        let qhd = TextCacheBudget.automatic(forDisplay: PixelSize(width: 2560, height: 1440))
        let uhd = TextCacheBudget.automatic(forDisplay: PixelSize(width: 3840, height: 2160))
        let eightK = TextCacheBudget.automatic(forDisplay: PixelSize(width: 7680, height: 4320))
        #expect(fullHD / mib == 241)
        #expect(qhd / mib == 210)
        #expect(uhd / mib == 159)
        #expect(eightK == 128 * mib)
        // What each budget buys, upright and turned a quarter (a screen of pieces and a
        // window a phase): 16 and 12 phases at 1080p, 12 and 4 at 1440p, 4 (quarter
        // pixels) and 2 at 4K, and never more than twice the default (8K stays at the
        // default: 2 phases would take more).
        for (size, budget, upright, turned) in [(PixelSize(width: 1920, height: 1080), fullHD, 16, 12),
                                                (PixelSize(width: 2560, height: 1440), qhd, 12, 4),
                                                (PixelSize(width: 3840, height: 2160), uhd, 4, 2)] {
            let screen = size.width * size.height * 4
            #expect(TextCacheBudget.phases(budget: budget, screenBytes: screen) == upright)
            #expect(TextCacheBudget.phases(budget: budget, screenBytes: screen + QuarterTurnWindow.byteCount(frameSize: size))
                    == turned)
            #expect(TextCacheBudget.rowPhases(forDisplay: size, budget: budget) == upright)
            #expect(budget <= 2 * ChunkedTextBlock.defaultCacheBudgetBytes)
        }
        // 4K in the old fixed 128 MB: half pixels.
        #expect(TextCacheBudget.phases(budget: 128 * mib, screenBytes: 3840 * 2160 * 4) == 2)
    }

    /// The stage sizes the budget from the outer display it draws: a 4K frame is
    /// drawn at quarter pixels without anything in rig.toml.
    @Test func aFourKOuterDisplayScrollsInQuarterPixels() throws {
        let size = PixelSize(width: 3840, height: 2160)
        let rig = ManualClockStage(settings: RigStage.Settings(outerSize: size), innerSize: PixelSize(width: 640, height: 360),
                                   fonts: try FontLibrary())
        rig.open(id: "4k", title: "4K", text: "A short script for a large display.\n\nIt scrolls in quarter pixels.")
        rig.finishLayout()
        _ = try rig.canvas(.outer, at: rig.clock.now)
        let block = try #require(rig.stage.renderer.readingText?.block)
        #expect(block.cacheBudgetBytes == TextCacheBudget.automatic(forDisplay: size))
        #expect(block.rowPhasesDrawn == 4)
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
