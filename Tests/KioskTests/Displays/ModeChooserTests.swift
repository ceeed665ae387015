import Testing
@testable import Kiosk
@testable import Stage

@Suite struct ModeChooserTests {
    // As Virtual-2 reports them when forced on: the first is huge and none is preferred.
    let virtual2 = [VideoMode(width: 5120, height: 2160, refreshMillihertz: 50_000),
                    VideoMode(width: 4096, height: 2160, refreshMillihertz: 60_000),
                    VideoMode(width: 1920, height: 1080, refreshMillihertz: 60_000),
                    VideoMode(width: 1920, height: 1080, refreshMillihertz: 59_940),
                    VideoMode(width: 1024, height: 768, refreshMillihertz: 60_004)]

    @Test func takesTheFlaggedPreferredModeNotTheFirst() throws {
        let choice = try #require(ModeChooser.choose(.preferred, among: virtual2,
                                                     preferred: [false, false, false, false, true], connector: "X"))
        #expect(choice.index == 4)
        #expect(choice.warning == nil)
    }

    @Test func withNoPreferredFlagTakesTheLargest() throws {
        let modes = Array(virtual2.reversed())
        let choice = try #require(ModeChooser.choose(.preferred, among: modes, preferred: modes.map { _ in false },
                                                     connector: "X"))
        #expect(modes[choice.index].width == 5120)
    }

    @Test func findsANamedModeByRefresh() throws {
        let flags = virtual2.map { _ in false }
        let sixty = try #require(ModeChooser.choose(.size(width: 1920, height: 1080, refresh: 60), among: virtual2,
                                                    preferred: flags, connector: "X"))
        #expect(sixty.index == 2 || sixty.index == 3)
        let any = try #require(ModeChooser.choose(.size(width: 1024, height: 768, refresh: nil), among: virtual2,
                                                  preferred: flags, connector: "X"))
        #expect(any.index == 4 && any.warning == nil)
    }

    @Test func aMissingModeFallsBackToPreferredWithAWarning() throws {
        let flags = [false, false, true, false, false]
        let choice = try #require(ModeChooser.choose(.size(width: 800, height: 600, refresh: nil), among: virtual2,
                                                     preferred: flags, connector: "Virtual-2"))
        #expect(choice.index == 2)
        #expect(choice.warning == "Virtual-2 has no mode 800x600; using 1920x1080@60 instead")
    }

    @Test func noModesNoChoice() {
        #expect(ModeChooser.choose(.preferred, among: [], preferred: [], connector: "X") == nil)
    }
}
