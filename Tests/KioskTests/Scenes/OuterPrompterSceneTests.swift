import Foundation
import Prompter
import Render
import Testing
@testable import Kiosk
@testable import Stage

@Suite struct OuterPrompterSceneTests {
    static let transformNames: [(TextTransform, String)] = TextTransform.allCombinations.map {
        ($0, "outer-rot\($0.rotation.rawValue)\($0.mirror ? "-mirror" : "")\($0.flip ? "-flip" : "")")
    }

    @Test(arguments: transformNames)
    func everyTransformMatchesItsReference(transform: TextTransform, name: String) throws {
        let composer = try SceneFixtures.playing(SceneFixtures.english,
                                                 settings: SceneFixtures.settings(transform: transform),
                                                 fonts: SceneFixtures.fonts)
        try SceneReferenceImage.expectMatch(SceneFixtures.outer(composer, at: 2), named: name)
    }

    @Test(arguments: [
        ("rtl-script", SceneFixtures.arabic, 24, 10.0),
        ("mixed-direction-line", SceneFixtures.mixedLine, 24, 10.0),
        ("emoji-cjk", SceneFixtures.emojiAndCJK, 24, 10.0),
        ("size-20px", SceneFixtures.english, 20, 10.0),
        ("size-120px", SceneFixtures.english, 120, 10.0),
        ("narrowest-column", SceneFixtures.english, 24, 25.0),
    ])
    func scriptsAndStylesMatchTheirReferences(name: String, text: String, fontSize: Int, margin: Double) throws {
        let composer = try SceneFixtures.playing(text, settings: SceneFixtures.settings(fontSize: fontSize, margin: margin),
                                                 fonts: SceneFixtures.fonts)
        try SceneReferenceImage.expectMatch(SceneFixtures.outer(composer, at: 0.5), named: "outer-\(name)")
    }

    /// Emphasis, a highlight and directions in each alignment, upright, mirrored and a
    /// quarter turn (issue 42).
    @Test(arguments: [ReadingAlignment.left, .centre, .right])
    func markedScriptsMatchTheirReferencesInEveryAlignment(alignment: ReadingAlignment) throws {
        let fonts = try SceneFixtures.fonts
        for (transform, name) in [(TextTransform.identity, "upright"), (TextTransform(mirror: true), "mirror"),
                                  (TextTransform(rotation: .quarter), "rot90")] {
            var settings = SceneFixtures.settings(transform: transform)
            settings.alignment = alignment
            let replay = SceneFixtures.playingMarkdown(SceneFixtures.marked, settings: settings, fonts: fonts)
            try SceneReferenceImage.expectMatch(SceneFixtures.outer(replay, at: 0.5),
                                                named: "outer-marked-\(alignment.rawValue)-\(name)")
        }
    }

    /// The same reading text without its marks: the same words, counted with the
    /// directions, and a frame without the directions' ink.
    @Test func marksChangeHowWordsLookNotWhereTheyAre() throws {
        let fonts = try SceneFixtures.fonts
        let marked = SceneFixtures.playingMarkdown(SceneFixtures.marked, settings: SceneFixtures.settings(), fonts: fonts)
        let plainText = ScriptLibrary.readingText(SceneFixtures.marked, format: .markdown, lineBreaks: .auto)
        let plain = try SceneFixtures.playing(plainText, settings: SceneFixtures.settings(), fonts: fonts)
        #expect(marked.controller.script?.wordCount == 28, "the two directions' five words are not counted")
        #expect(plain.controller.script?.wordCount == 33)
        let markedFrame = try SceneFixtures.outer(marked, at: 0.5), plainFrame = try SceneFixtures.outer(plain, at: 0.5)
        #expect(!markedFrame.hasSamePixels(as: plainFrame))
        // The directions' ink: cyan pixels exist only in the marked frame.
        func cyanPixels(_ canvas: Canvas) -> Int {
            var count = 0
            for y in 0..<canvas.height {
                for x in 0..<canvas.width {
                    let color = canvas.color(x: x, y: y)
                    if color.blue > 200 && color.green > 150 && color.red < 150 { count += 1 }
                }
            }
            return count
        }
        #expect(cyanPixels(markedFrame) > 200)
        #expect(cyanPixels(plainFrame) == 0)
    }

    @Test func mirroredFrameIsTheHorizontalFlipOfThePlainFrame() throws {
        let fonts = try SceneFixtures.fonts
        let plain = try SceneFixtures.outer(SceneFixtures.playing(SceneFixtures.english,
                                                                  settings: SceneFixtures.settings(), fonts: fonts), at: 3)
        let mirrored = try SceneFixtures.outer(SceneFixtures.playing(
            SceneFixtures.english, settings: SceneFixtures.settings(transform: TextTransform(mirror: true)),
            fonts: fonts), at: 3)
        #expect(mirrored.hasSamePixels(as: try SceneFixtures.mirrored(plain)))
        #expect(!mirrored.hasSamePixels(as: plain))
    }

    @Test func halfTurnEqualsMirrorPlusFlip() throws {
        let fonts = try SceneFixtures.fonts
        let turned = try SceneFixtures.outer(SceneFixtures.playing(
            SceneFixtures.english, settings: SceneFixtures.settings(transform: TextTransform(rotation: .half)),
            fonts: fonts), at: 3)
        let both = try SceneFixtures.outer(SceneFixtures.playing(
            SceneFixtures.english, settings: SceneFixtures.settings(transform: TextTransform(mirror: true, flip: true)),
            fonts: fonts), at: 3)
        #expect(turned.hasSamePixels(as: both))
    }

    /// Mirror and flip never reach the inner display. A quarter turn lays the talent's
    /// text out on the display's height, so at the same scroll offset the talent is at
    /// another word and has more to read: the console's position and times follow
    /// that, but nothing on it is turned. So: every transform gives the inner frame
    /// of its own rotation's upright case, and the half turn that of the plain one.
    @Test func innerDisplayIsTheSameUnderEveryTextTransform() throws {
        let fonts = try SceneFixtures.fonts
        func inner(_ transform: TextTransform) throws -> Canvas {
            try SceneFixtures.inner(SceneFixtures.playing(SceneFixtures.english,
                                                          settings: SceneFixtures.settings(transform: transform),
                                                          fonts: fonts), at: 3)
        }
        let plain = try inner(TextTransform())
        let turned = try inner(TextTransform(rotation: .quarter))
        for transform in TextTransform.allCombinations where !transform.isIdentity {
            let expected = transform.swapsAxes ? turned : plain
            #expect(try inner(transform).hasSamePixels(as: expected), "\(transform)")
        }
    }

    @Test func pausedBadgeShowsOnlyAfterATapPause() throws {
        let fonts = try SceneFixtures.fonts
        let byOperator = try SceneFixtures.playing(SceneFixtures.english, settings: SceneFixtures.settings(), fonts: fonts)
        byOperator.advance(to: 1)
        byOperator.controller.pause(at: 1)
        let pausedByOperator = try SceneFixtures.outer(byOperator, at: 2)
        let byTap = try SceneFixtures.playing(SceneFixtures.english, settings: SceneFixtures.settings(), fonts: fonts)
        byTap.advance(to: 1)
        byTap.stage.handle(.outerTap(time: 1))
        let pausedByTap = try SceneFixtures.outer(byTap, at: 2)
        let badge = Badge.paused(in: PixelRect(size: SceneFixtures.display), textColor: .white, background: .black)
        let centre = (x: badge.rect.x + badge.rect.width / 2, y: badge.rect.y + badge.rect.height / 2)
        let barX = badge.rect.x + badge.rect.width / 2 - max(2, badge.rect.width / 6)
        #expect(pausedByTap.color(x: barX, y: centre.y).red > 200)   // a pause bar
        #expect(pausedByOperator.color(x: barX, y: centre.y) != pausedByTap.color(x: barX, y: centre.y))
        try SceneReferenceImage.expectMatch(pausedByTap, named: "outer-paused-by-tap")
    }

    @Test func togglingMirrorKeepsTheReadingPosition() throws {
        let fonts = try SceneFixtures.fonts
        let replay = try SceneFixtures.playing(SceneFixtures.english, settings: SceneFixtures.settings(), fonts: fonts)
        replay.advance(to: 4)
        let before = replay.controller.engine.offset(at: 4)
        replay.controller.updateSettings { $0 = SceneFixtures.settings(transform: TextTransform(mirror: true)) }
        _ = try SceneFixtures.outer(replay, at: 4)
        #expect(replay.controller.engine.offset(at: 4) == before)
        #expect(replay.stage.renderer.readingText?.block?.transform == TextTransform(mirror: true))
    }

    @Test func quarterTurnRelaysOutOnTheSameWord() throws {
        let fonts = try SceneFixtures.fonts
        let replay = try SceneFixtures.playing(SceneFixtures.english, settings: SceneFixtures.settings(), fonts: fonts)
        replay.advance(to: 4)
        let oldLayout = try #require(replay.stage.renderer.readingText?.layout)
        let word = oldLayout.wordIndex(atY: replay.controller.engine.offset(at: 4))
        replay.controller.updateSettings { $0 = SceneFixtures.settings(transform: TextTransform(rotation: .quarter)) }
        let newLayout = try #require(replay.stage.renderer.readingText?.layout)
        #expect(newLayout !== oldLayout)
        #expect(newLayout.columnWidth < oldLayout.columnWidth)   // the column is the display's height now
        #expect(newLayout.wordIndex(atY: replay.controller.engine.offset(at: 4)) == word)
    }
}
