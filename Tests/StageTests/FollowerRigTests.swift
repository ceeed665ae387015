import Foundation
import Prompter
import Render
import Testing
@testable import Stage

/// A follower rig's stage fed the lead's live states, script and clock as its link hands
/// them over, on manual clocks that advance together (both rigs' wall clocks agree): the
/// states an operator sees, the banner, the script checked by its hash, the place kept
/// with another font, and the operator taking over and handing back.
@Suite struct FollowerRigTests {
    static let paragraph = String(repeating: "Words to read at a steady pace. ", count: 30)
    static let markdown = "# Opening\n\(paragraph)\n\n# Weather\n\(paragraph)\n\n# Sport\n\(paragraph)\n"
    static let wallBase = 1_800_000_000.0

    struct Rigs {
        let lead: ManualClockStage
        let follower: ManualClockStage
        var rig: FollowerRig { follower.stage.followerRig! }

        var now: Double { lead.clock.now }

        /// Both clocks to `time`.
        func advance(to time: Double) {
            lead.advance(to: time)
            follower.advance(to: time)
        }

        func status(_ replay: ManualClockStage) -> JSONValue {
            replay.stage.status(at: replay.clock.now)
        }

        /// What the lead's live state says now, as the follower's link hands it over;
        /// `builtLate` seconds after the request's time (the lead's loop was busy).
        func deliverState(builtLate: Double = 0) {
            let prompter = lead.stage.status(at: lead.clock.now - builtLate)["prompter"]
            let json: JSONValue = ["anchor": prompter?["anchor"] ?? .null, "state": prompter?["state"] ?? .null,
                                   "blanked": prompter?["blanked"] ?? .null, "script": prompter?["script"] ?? .null]
            follower.stage.handle(.leadLink(.state(LeadState(json: json))))
        }

        /// Plays on for `seconds` at 60 frames a second, the lead's state ten times a
        /// second; `eachFrame` after every frame.
        func run(_ seconds: Double, eachFrame: () -> Void = {}) {
            let end = now + seconds
            var next = now
            while now < end {
                if now >= next { deliverState(); next += 0.1 }
                advance(to: now + 1.0 / 60)
                eachFrame()
            }
        }

        var followRig: JSONValue? { status(follower)["follow_rig"] }
    }

    /// Words of very uneven lengths: the two layouts' lines hold different shares of the
    /// text from one knot to the next, so the follower's speed changes at each knot.
    static let uneven: String = {
        let words = ["a", "extraordinarily", "to", "be", "communication", "it", "responsibilities", "of", "go",
                     "understanding", "I", "at"]
        let text = (0..<1200).map { words[($0 * 7 + $0 / 13) % words.count] }.joined(separator: " ")
        return "# Uneven\n\n\(text)\n"
    }()

    /// The lead's `script_text` reply: `source`, with the hash of `hashed`'s reading text
    /// (the lead's, when its file changed since it was shown).
    static func scriptReply(source: String = markdown, hashed: String? = nil) -> JSONValue {
        let reading = ScriptLibrary.readingText(hashed ?? source, format: .markdown, lineBreaks: .auto)
        return ["ok": true, "id": "news.md", "title": "News", "format": "md", "line_breaks": "auto",
                "directions": "brackets", "source": .string(source), "script_hash": .string(SHA256.hex(reading))]
    }

    func rigs(markdown: String = markdown, leadCountdown: Int = 0) throws -> Rigs {
        let fonts = try FontLibrary()
        var leadSettings = RigStage.Settings(outerSize: PixelSize(width: 640, height: 360))
        leadSettings.readingDefaults.countdown = leadCountdown
        let lead = ManualClockStage(settings: leadSettings, innerSize: PixelSize(width: 640, height: 360), fonts: fonts)
        let (reading, markers, markup) = ScriptLibrary.readingTextAndMarkers(markdown, format: .markdown, lineBreaks: .auto)
        lead.controller.openText(.init(id: "news.md", title: "News", text: reading,
                                       wordCount: ReadingTime.wordCount(reading, markup: markup), repaired: false,
                                       markers: markers, markup: markup), at: 0)
        lead.finishLayout()
        var settings = RigStage.Settings(outerSize: PixelSize(width: 640, height: 360))
        settings.readingDefaults.fontSize += 24
        settings.readingDefaults.mirror = true
        settings.followRig = FollowerRig.Settings(leader: "http://10.0.0.1:8080")
        let follower = ManualClockStage(settings: settings, innerSize: PixelSize(width: 640, height: 360), fonts: fonts)
        lead.stage.wallClock = { [clock = lead.clock] in Date(timeIntervalSince1970: Self.wallBase + clock.now) }
        follower.stage.wallClock = { [clock = follower.clock] in Date(timeIntervalSince1970: Self.wallBase + clock.now) }
        return Rigs(lead: lead, follower: follower)
    }

    @Test func aFollowerTakesTheLeadsScriptAndKeepsItsPlaceWithItsOwnFont() throws {
        let rigs = try rigs()
        var fetches = 0
        rigs.rig.fetchScript = { fetches += 1 }
        #expect(rigs.followRig?["state"] == "lost")
        rigs.deliverState()
        // The lead's text is not here yet: holding, and asked for once.
        #expect(rigs.followRig?["state"] == "holding")
        rigs.deliverState()
        #expect(fetches == 1)
        let script = try LeadScript.parse(Self.scriptReply()).get()
        rigs.follower.stage.handle(.leadLink(.script(script)))
        rigs.follower.finishLayout()
        rigs.deliverState()
        #expect(rigs.followRig?["state"] == "following")
        #expect(rigs.status(rigs.follower)["prompter"]?["script"] == "news.md")

        #expect(rigs.lead.stage.handle(.play).body["ok"] == true)
        rigs.run(6)
        let offset = try #require(rigs.followRig?["offset_px"]?.numberValue)
        #expect(abs(offset) < 1, "the follower is \(offset) px from the lead's place")
        #expect(rigs.followRig?["offset_words"] == 0)
        #expect(rigs.status(rigs.follower)["prompter"]?["state"] == "playing")
        // A marker jump on the lead: the follower's reading line holds the lead's word.
        #expect(rigs.lead.stage.handle(.marker(action: "jump", to: "Sport")).body["ok"] == true)
        rigs.run(1)
        let leadWord = try #require(rigs.status(rigs.lead)["prompter"]?["word"]?.numberValue).rounded()
        let layout = try #require(rigs.follower.stage.renderer.readingText?.layout)
        let here = rigs.follower.controller.engine.offset(at: rigs.now)
        let line = layout.lineIndex(atY: here)
        let first = Double(layout.wordIndex(atY: here)), next = Double(layout.wordIndex(atY: layout.y(ofLine: line + 1)))
        #expect(first <= leadWord && leadWord < max(next, first + 1), "lead's word \(leadWord), follower's line \(first)..<\(next)")
    }

    /// Where the two layouts' line spans change (a knot of either), the follower's speed
    /// changes too: its ramp is centred on the change (the rate is read half a ramp ahead)
    /// and the lead's next knot comes in its anchor, so no ramp falls behind. Every frame
    /// of 8 s at 200 px/s is within a frame of this rig's motion of the lead's place.
    @Test func unevenLinesAreFollowedWithinAFrameOfMotion() throws {
        let rigs = try rigs(markdown: Self.uneven)
        rigs.deliverState()
        rigs.follower.stage.handle(.leadLink(.script(try LeadScript.parse(Self.scriptReply(source: Self.uneven)).get())))
        rigs.follower.finishLayout()
        rigs.deliverState()
        #expect(rigs.followRig?["state"] == "following")
        _ = rigs.lead.stage.handle(.speed(200))
        #expect(rigs.lead.stage.handle(.play).body["ok"] == true)
        rigs.run(5)
        var worst = 0.0, worstPx = 0.0, frames = 0
        var previous = rigs.follower.controller.engine.offset(at: rigs.now)
        rigs.run(8) {
            let here = rigs.follower.controller.engine.offset(at: rigs.now)
            let frameOfMotion = max(here - previous, 0.5)
            previous = here
            guard let offset = rigs.followRig?["offset_px"]?.numberValue else { return }
            frames += 1
            worstPx = max(worstPx, abs(offset))
            worst = max(worst, abs(offset) / frameOfMotion)
        }
        print("follower rig, uneven lines at 200 px/s: \(frames) frames, largest offset "
              + "\(String(format: "%.2f", worstPx)) px, \(String(format: "%.2f", worst)) frames of motion")
        #expect(frames > 400)
        #expect(worst <= 1)
    }

    /// A lead whose status is built late (its loop busy, the request's time taken on
    /// arrival): the anchor carries the wall time of the offset it names, so the
    /// follower stays on the lead's place however late each state was built.
    @Test func aStateBuiltLateStillNamesTheLeadsPlaceAtItsTime() throws {
        let rigs = try rigs()
        rigs.deliverState()
        rigs.follower.stage.handle(.leadLink(.script(try LeadScript.parse(Self.scriptReply()).get())))
        rigs.follower.finishLayout()
        rigs.deliverState()
        _ = rigs.lead.stage.handle(.speed(200))
        #expect(rigs.lead.stage.handle(.play).body["ok"] == true)
        rigs.run(3)
        var worst = 0.0, late = 0
        for _ in 0..<40 {
            // 0, 40, 80 ... 120 ms late: 24 px of the lead's motion at the worst.
            rigs.deliverState(builtLate: Double(late % 4) * 0.04)
            late += 1
            for _ in 0..<6 {
                rigs.advance(to: rigs.now + 1.0 / 60)
                worst = max(worst, abs(rigs.followRig?["offset_px"]?.numberValue ?? .infinity))
            }
        }
        #expect(worst < 1, "the follower was \(worst) px from the lead's place")
    }

    /// The lead's 3-2-1: the follower's talent sees the same digit at the same moment
    /// (its own countdown, ending when the lead's does), and the text starts with the lead's.
    @Test func theLeadsCountdownIsCountedOnTheFollower() throws {
        let rigs = try rigs(leadCountdown: 3)
        rigs.deliverState()
        rigs.follower.stage.handle(.leadLink(.script(try LeadScript.parse(Self.scriptReply()).get())))
        rigs.follower.finishLayout()
        rigs.deliverState()
        #expect(rigs.lead.stage.handle(.play).body["ok"] == true)
        var seen: [JSONValue] = []
        rigs.run(3.2) {
            let lead = rigs.status(rigs.lead)["prompter"]?["countdown"] ?? .null
            let here = rigs.status(rigs.follower)["prompter"]?["countdown"] ?? .null
            // The first state reaches the follower a frame after the play.
            if rigs.now > 0.05 { #expect(here == lead, "at \(rigs.now): lead \(lead), follower \(here)") }
            if seen.last != here { seen.append(here) }
        }
        #expect(seen == [3, 2, 1, .null])
        rigs.run(2)
        #expect(rigs.status(rigs.follower)["prompter"]?["state"] == "playing")
        let offset = try #require(rigs.followRig?["offset_px"]?.numberValue)
        #expect(abs(offset) < 1, "the follower is \(offset) px from the lead's place")
    }

    @Test func theLeadLostIsSaidPausesAndCatchesUpWhenItIsBack() throws {
        let rigs = try rigs()
        rigs.deliverState()
        rigs.follower.stage.handle(.leadLink(.script(try LeadScript.parse(Self.scriptReply()).get())))
        rigs.follower.finishLayout()
        _ = rigs.lead.stage.handle(.play)
        rigs.run(3)
        rigs.follower.stage.handle(.leadLink(.lost("the lead closed the connection")))
        #expect(rigs.followRig?["state"] == "lost")
        let banner = rigs.status(rigs.follower)["problems"]?.serialized ?? ""
        #expect(banner.contains("lead lost: http://10.0.0.1:8080 (the lead closed the connection)"))
        // The lead plays on for 5 s; here the text eases out and holds.
        let lostAt = rigs.now
        rigs.advance(to: lostAt + 5)
        #expect(rigs.status(rigs.follower)["prompter"]?["state"] == "paused")
        // Back: following, and at the lead's place within a second.
        rigs.run(1)
        #expect(rigs.followRig?["state"] == "following")
        let offset = try #require(rigs.followRig?["offset_px"]?.numberValue)
        #expect(abs(offset) < 1)
        let after = rigs.status(rigs.follower)["problems"]?.serialized ?? ""
        #expect(after.contains("lead lost") == false, "the banner still says: \(after)")
    }

    @Test func theOperatorTakesOverAndHandsBack() throws {
        let rigs = try rigs()
        rigs.deliverState()
        rigs.follower.stage.handle(.leadLink(.script(try LeadScript.parse(Self.scriptReply()).get())))
        rigs.follower.finishLayout()
        _ = rigs.lead.stage.handle(.play)
        rigs.run(2)
        // The follow-rig key: local; the lead's speed no longer reaches this rig.
        _ = rigs.follower.stage.handle(.key(.followRig))
        #expect(rigs.followRig?["state"] == "local")
        let speed = rigs.follower.controller.engine.speed
        _ = rigs.lead.stage.handle(.speed(200))
        rigs.run(1)
        #expect(rigs.follower.controller.engine.speed == speed)
        #expect((rigs.status(rigs.follower)["problems"]?.serialized ?? "").contains("taken over here"))
        // Handed back: following, caught up.
        _ = rigs.follower.stage.handle(.followRig(local: false))
        rigs.run(1)
        #expect(rigs.followRig?["state"] == "following")
        #expect(abs(rigs.followRig?["offset_px"]?.numberValue ?? 99) < 1)
        // The talent's tap while following: taken over here, and paused.
        rigs.follower.stage.handle(.outerTap(time: rigs.now))
        #expect(rigs.followRig?["state"] == "local")
        #expect(rigs.status(rigs.follower)["prompter"]?["state"] == "paused")
    }

    @Test func aScriptThatCannotBeHadIsAskedForAgainAfterFiveSecondsNotOnEveryState() throws {
        let rigs = try rigs()
        var fetches = 0
        rigs.rig.fetchScript = { fetches += 1 }
        rigs.deliverState()
        rigs.follower.stage.handle(.leadLink(.scriptProblem("could not fetch it: no answer")))
        for second in 1...4 { rigs.advance(to: Double(second)); rigs.deliverState() }
        #expect(fetches == 1)
        #expect((rigs.status(rigs.follower)["problems"]?.serialized ?? "").contains("lead's script: could not fetch it"))
        rigs.advance(to: 5.5)
        rigs.deliverState()
        #expect(fetches == 2)
    }

    @Test func theLeadsBlankIsFollowedAndAClockOffTheLeadsIsSaid() throws {
        let rigs = try rigs()
        rigs.deliverState()
        rigs.follower.stage.handle(.leadLink(.script(try LeadScript.parse(Self.scriptReply()).get())))
        rigs.follower.finishLayout()
        _ = rigs.lead.stage.handle(.blank(true))
        rigs.deliverState()
        #expect(rigs.follower.controller.blanked)
        _ = rigs.lead.stage.handle(.blank(false))
        rigs.deliverState()
        #expect(!rigs.follower.controller.blanked)
        rigs.follower.stage.handle(.leadLink(.clock(offset: 0.004, roundTrip: 0.001)))
        #expect(rigs.followRig?["clock_offset_ms"] == 4)
        let quiet = rigs.status(rigs.follower)["problems"]?.serialized ?? ""
        #expect(quiet.contains("clock") == false, "banner: \(quiet)")
        rigs.follower.stage.handle(.leadLink(.clock(offset: -0.025, roundTrip: 0.001)))
        let banner = rigs.status(rigs.follower)["problems"]?.serialized ?? ""
        #expect(banner.contains("this rig's clock is -25 ms off the lead's: keep both with chrony"), "banner: \(banner)")
    }

    @Test func aScriptThatReadsDifferentlyHereIsNotShown() {
        switch LeadScript.parse(Self.scriptReply(source: Self.markdown + "\nA line the lead does not have.\n", hashed: Self.markdown)) {
        case .success: Issue.record("a text whose hash differs was accepted")
        case let .failure(refusal): #expect(refusal.description.contains("reads differently here"))
        }
        #expect((try? LeadScript.parse(["ok": false, "error": "no script is open"]).get()) == nil)
    }

    /// The text position: continuous and the same place in two layouts of one text.
    @Test func aTextPositionIsTheSamePlaceInAnotherLayout() throws {
        let rigs = try rigs()
        rigs.follower.controller.openText(.init(id: "news.md", title: "News", text: rigs.lead.controller.script!.text,
                                                wordCount: 1, repaired: false), at: 0)
        rigs.follower.finishLayout()
        let lead = try #require(rigs.lead.stage.renderer.readingText?.layout)
        let follower = try #require(rigs.follower.stage.renderer.readingText?.layout)
        var previous = -1.0
        for y in stride(from: 0.0, to: lead.laidOutHeight - lead.lineHeight, by: lead.lineHeight / 7) {
            let position = lead.textPosition(atY: y).position
            #expect(position > previous)
            previous = position
            let there = follower.y(ofTextPosition: position).y
            #expect(abs(follower.textPosition(atY: there).position - position) < 1e-6)
            #expect(abs(lead.y(ofTextPosition: position).y - y) < 1e-6)
        }
    }
}
