import Testing
@testable import Kiosk
@testable import Stage

/// The window backend's arithmetic: one scale for both windows, titles, and window
/// points back onto display pixels. No desktop needed.
@Suite struct WindowLayoutTests {
    typealias Size = WindowLayout.Size

    @Test func bothDisplaysFitSideBySideAtOneWholePercentScale() {
        let layout = WindowLayout(inner: Size(width: 1920, height: 1080), outer: Size(width: 1920, height: 1080),
                                  screen: Size(width: 1920, height: 1050))
        // (1920 - 3 * 48) / 3840 = 0.4625 → 46 %, rounded down so the title is never too large.
        #expect(layout.scale == 0.46)
        #expect(layout.windowSize(for: Size(width: 1920, height: 1080)) == Size(width: 883, height: 497))
        let placed = 2 * layout.windowSize(for: Size(width: 1920, height: 1080)).width + 3 * WindowLayout.margin
        #expect(placed <= 1920)
    }

    @Test func neverScalesUpAndHeightCanBeTheLimit() {
        let small = WindowLayout(inner: Size(width: 800, height: 600), outer: Size(width: 640, height: 480),
                                 screen: Size(width: 3840, height: 2160))
        #expect(small.scale == 1)
        let tall = WindowLayout(inner: Size(width: 1080, height: 1920), outer: Size(width: 600, height: 400),
                                screen: Size(width: 2560, height: 1000))
        #expect(tall.scale == 0.47)  // (1000 - 96) / 1920 = 0.4708
    }

    @Test func aForcedScaleIsUsedAsGivenAndNoScreenMeansFullSize() {
        #expect(WindowLayout(inner: Size(width: 4000, height: 3000), outer: nil, screen: Size(width: 800, height: 600),
                             forced: 1).scale == 1)
        #expect(WindowLayout(inner: Size(width: 4000, height: 3000), outer: nil, screen: nil).scale == 1)
    }

    @Test func titlesNameTheDisplayItsSizeAndScale() {
        #expect(WindowLayout.title(.inner, display: Size(width: 1920, height: 1080), scale: 0.5)
            == "inner (operator) — 1920×1080 at 50%")
        #expect(WindowLayout.title(.outer, display: Size(width: 1280, height: 720), scale: 1, note: "no camera")
            == "outer (talent) — 1280×720 at 100% — no camera")
    }

    @Test func windowPointsMapOntoDisplayPixelsThroughTheLetterbox() {
        // A 1920x1080 display in a 960x800 window: 960x540 picture, 130 px bars above and below.
        let viewport = WindowViewport(display: Size(width: 1920, height: 1080), window: Size(width: 960, height: 800))
        #expect(viewport.x == 0 && viewport.y == 130 && viewport.width == 960 && viewport.height == 540)
        #expect(viewport.scale == 0.5)
        let centre = viewport.displayPoint(windowX: 480, windowY: 400)
        #expect(centre.x == 960 && centre.y == 540)
        // A point on the bar lands on the display's edge, not outside it.
        let above = viewport.displayPoint(windowX: 10, windowY: 5)
        #expect(above.x == 20 && above.y == 0)
        let corner = viewport.displayPoint(windowX: 2000, windowY: 2000)
        #expect(corner.x == 1919 && corner.y == 1079)
    }
}
