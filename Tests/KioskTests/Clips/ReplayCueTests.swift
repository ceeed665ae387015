import Foundation
import Media
import Render
import Testing
@testable import Kiosk
@testable import Stage

/// The host checks a Visual S/Z letter on the Clips screen's replay: the replay shows
/// it on the pictures of the clip's stored cue interval, and on no others. Before the
/// cue export is ready the letter is drawn over the recording; once it is, the export
/// itself is replayed, and nothing is drawn over it a second time.
@Suite(.serialized) struct ReplayCueTests {
    static let id = "game-20261201-094000-4"
    static let cue = CueInterval(start: 0.5, end: 1.0)
    static let frames = 45
    /// Each picture's grey says which it is (as ClipsHarness's do), so what the inner
    /// display shows is known from its pixels, whatever the stage composes next.
    static func luma(_ index: Int) -> UInt8 { UInt8(24 + 4 * index) }

    /// The letter is on the pictures inside the stored interval, upright, and nowhere else.
    @Test func aRecordingReplaysWithTheLetterInsideItsStoredCueOnly() throws {
        let rig = try ClipsHarness()
        try Self.recordAttempt(in: rig.folder, letter: "S")
        let frames = try Self.replay(rig)
        #expect(rig.stage.clips.status["replay"]?["source"]?.stringValue == "recording")
        for frame in frames {
            #expect(frame.drawn == (Self.cue.contains(frame.composed) ? "S" : nil), "picture at \(frame.composed) s")
            guard let time = frame.onScreen else { continue }
            #expect(frame.badge(within: 12) == Self.cue.contains(time),
                    "picture at \(time) s: fill \(String(frame.fill, radix: 16)), border \(String(frame.border, radix: 16))")
        }
        let seen = frames.compactMap(\.onScreen)
        #expect(seen.filter { Self.cue.contains($0) }.count >= 12 && seen.filter { !Self.cue.contains($0) }.count >= 20,
                "pictures seen: \(seen)")
        // From the top again, paused inside the interval: the letter reads upright, and
        // the frame is the reference.
        rig.key("Space", text: " ", settle: false)
        Self.play(rig, until: 0.75)
        rig.key("Space", text: " ")
        let screen = try rig.innerCanvas()
        let box = CueBadge.box(in: try #require(Self.pictureRect(screen)))
        let painter = GlyphPainter(fonts: try FontLibrary())
        let inset = box.width / 8
        let letterArea = PixelRect(x: box.x + inset, y: box.y + inset, width: box.width - 2 * inset,
                                   height: box.height - 2 * inset)
        let shown = CueBadgeTests.inkMask(screen, in: letterArea, light: true)
        let upright = CueBadgeTests.inkMask(try Self.uprightLetter("S", side: box.width, painter: painter),
                                            in: PixelRect(x: 0, y: 0, width: box.width * 2, height: box.width * 2),
                                            light: true)
        #expect(!shown.isEmpty, "no letter in the replay's badge")
        let same = CueBadgeTests.mismatch(shown, upright)
        let mirrored = CueBadgeTests.mismatch(shown, upright.map { Array($0.reversed()) })
        #expect(same < 0.05, "the replay's S differs from the upright letter in \(Int(same * 100)) % of its ink")
        #expect(mirrored > 0.3, "the replay's S also matches its mirror image")
        try SceneReferenceImage.expectMatch(screen, named: "console-clips-replay-cue")
    }

    /// A ready `.cue.mp4` is what replays: here a stand-in of another grey with no badge
    /// in it, so a badge drawn over it a second time, or the recording replayed instead,
    /// shows. Both files are leased while it plays.
    @Test func aReadyCueExportIsReplayedWithNoSecondBadge() throws {
        let rig = try ClipsHarness()
        try Self.recordAttempt(in: rig.folder, letter: "Z")
        try Self.record(in: rig.folder, name: Self.id + ".cue", tinted: true)
        // A derived file has no JSON of its own.
        try FileManager.default.removeItem(atPath: rig.folder + "/\(Self.id).cue.json")
        try Self.markCueExportReady(in: rig.folder)
        let frames = try Self.replay(rig)
        #expect(rig.stage.clips.status["replay"]?["source"]?.stringValue == "cue_export")
        let leases = rig.app.recording?.stored.leases
        #expect(leases?.purposes(of: rig.folder + "/\(Self.id).mp4") == ["replay"])
        #expect(leases?.purposes(of: rig.folder + "/\(Self.id).cue.mp4") == ["replay"])
        #expect(frames.count >= 40)
        for frame in frames {
            #expect(frame.drawn == nil && !frame.badge(within: 12),
                    "picture at \(frame.composed) s has a badge drawn over the export")
            #expect(Int(frame.beside.red) > Int(frame.beside.blue) + 20, "picture at \(frame.composed) s is not the export's: \(frame.beside)")
        }
        rig.key("Esc")
        rig.key("Esc")
        #expect(rig.stage.clips.replay == nil && rig.app.recording?.stored.leases.count == 0)
    }

    /// The real cue export, made from the recording with the one badge, replays with its
    /// letter inside the interval (burned in; nothing is drawn over it).
    @Test func aCueExportMadeWithTheBadgeShowsItsLetterOnReplay() throws {
        let rig = try ClipsHarness()
        try Self.recordAttempt(in: rig.folder, letter: "S")
        let painter = GlyphPainter(fonts: try FontLibrary())
        let badge = try #require(CueBadge.picture(letter: "S", pictureWidth: 320, pictureHeight: 240, painter: painter))
        _ = try CueExport.export(from: rig.folder + "/\(Self.id).mp4", to: rig.folder + "/\(Self.id).cue.mp4",
                                 cue: Self.cue, badge: badge)
        try Self.markCueExportReady(in: rig.folder)
        let frames = try Self.replay(rig)
        #expect(rig.stage.clips.status["replay"]?["source"]?.stringValue == "cue_export")
        for frame in frames {
            #expect(frame.drawn == nil)
            guard let time = frame.onScreen else { continue }
            // Compressed, so near the badge's colours rather than on them.
            #expect(frame.badge(within: 28) == Self.cue.contains(time),
                    "picture at \(time) s: fill \(String(frame.fill, radix: 16)), border \(String(frame.border, radix: 16))")
        }
        let seen = frames.compactMap(\.onScreen)
        #expect(seen.filter { Self.cue.contains($0) }.count >= 12 && seen.filter { !Self.cue.contains($0) }.count >= 20,
                "pictures seen: \(seen)")
    }

    // MARK: what the inner display showed

    struct Frame {
        /// The time of the picture the stage composed last (it may not be on the glass yet).
        var composed: Double
        /// The letter drawn over that picture (`clips.replay.cue` in status).
        var drawn: String?
        /// The time of the picture on the inner display, known by its grey; nil when the
        /// grey is no picture's.
        var onScreen: Double?
        /// The inner display where the badge's fill and border are, and beside the badge.
        var fill: UInt32
        var border: UInt32
        var beside: Color

        /// The badge is on the inner display: its fill and border colours where the badge's are.
        func badge(within tolerance: Int) -> Bool {
            let style = CueBadge.Style.recording
            return ReplayCueTests.near(fill, style.fill, tolerance) && ReplayCueTests.near(border, style.border, tolerance * 2)
        }
    }

    /// The picture whose grey `color` is, by its time; nil when it is no picture's.
    static func pictureTime(_ color: Color) -> Double? {
        let channels = [color.red, color.green, color.blue].map { Double($0) }
        guard let high = channels.max(), let low = channels.min(), high - low <= 3 else { return nil }
        let grey = channels.reduce(0, +) / 3
        // BT.601 limited range, as libyuv converts: RGB = 1.164 (Y − 16).
        func rgb(_ index: Int) -> Double { 1.164 * (Double(luma(index)) - 16) }
        guard let nearest = (0..<frames).min(by: { abs(rgb($0) - grey) < abs(rgb($1) - grey) }),
              abs(rgb(nearest) - grey) <= 2 else { return nil }
        return Double(nearest) / 30
    }

    /// Replays the clip full screen through its whole length at 60 Hz; each frame as shown.
    static func replay(_ rig: ClipsHarness) throws -> [Frame] {
        rig.click("tab:clips")
        let reply = rig.app.stage.handle(.clips(action: "replay", id: id, to: nil))
        #expect(reply.body["ok"]?.boolValue == true, "\(reply.body)")
        rig.key("F", text: "f", settle: false)
        var frames: [Frame] = []
        while rig.stage.clips.replay?.clock.hasEnded(at: rig.clock.now()) == false, frames.count < 200 {
            play(rig, until: (rig.stage.clips.replay?.clock.position(at: rig.clock.now()) ?? 0) + 1.0 / 60)
            guard let time = rig.stage.clips.replay?.pictures.shown?.time else { continue }
            let screen = try rig.innerCanvas()
            let box = CueBadge.box(in: try #require(pictureRect(screen)))
            let fill = screen.pixel(x: box.x + box.width / 8, y: box.y + box.height / 2) & 0xff_ffff
            let border = screen.pixel(x: box.x + max(3, box.width / 24) / 2, y: box.y + box.height / 2) & 0xff_ffff
            let beside = screen.color(x: box.x - 8, y: box.y + box.height / 2)
            frames.append(Frame(composed: time, drawn: rig.stage.clips.status["replay"]?["cue"]?.stringValue,
                                onScreen: pictureTime(beside), fill: fill, border: border, beside: beside))
        }
        return frames
    }

    /// The replay played on until clip position `position`, a 60 Hz frame at a time,
    /// each frame's pictures decoded before it is due (the decoder's own thread keeps
    /// ahead so on the rig; here the clock stands still while it does). A playing replay
    /// never settles, so frames are composed at each vblank on the way.
    static func play(_ rig: ClipsHarness, until position: Double) {
        for _ in 0..<400 {
            guard let replay = rig.stage.clips.replay, replay.clock.isPlaying(at: rig.clock.now()) else { return }
            let now = replay.clock.position(at: rig.clock.now())
            guard now < position - 1e-9 else { return }
            let next = min(position, now + 1.0 / 60)
            rig.waitForThreads {
                rig.stage.clips.replay?.decoderEnded == true || (rig.stage.clips.replay?.pictures.newestTime ?? 0) >= next
            }
            rig.loop.advance(by: next - now)
        }
    }

    static func near(_ pixel: UInt32, _ color: Color, _ tolerance: Int) -> Bool {
        abs(Int((pixel >> 16) & 0xff) - Int(color.red)) <= tolerance
            && abs(Int((pixel >> 8) & 0xff) - Int(color.green)) <= tolerance
            && abs(Int(pixel & 0xff) - Int(color.blue)) <= tolerance
    }

    /// The replayed picture on the full-screen replay: the non-black area through the
    /// middle of the display (the letterbox and the transport's bar are black).
    static func pictureRect(_ screen: Canvas) -> PixelRect? {
        let x = screen.width / 4
        guard let top = (0..<screen.height).first(where: { screen.pixel(x: x, y: $0) & 0xff_ffff != 0 }) else { return nil }
        let bottom = (top..<screen.height).first { screen.pixel(x: x, y: $0) & 0xff_ffff == 0 } ?? screen.height
        let y = top + 2
        guard let left = (0..<screen.width).first(where: { screen.pixel(x: $0, y: y) & 0xff_ffff != 0 }),
              let right = (0..<screen.width).last(where: { screen.pixel(x: $0, y: y) & 0xff_ffff != 0 }) else { return nil }
        return PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top)
    }

    /// The letter alone, white on black as a plain label at the badge's type size, upright.
    static func uprightLetter(_ letter: Character, side: Int, painter: GlyphPainter) throws -> Canvas {
        let canvas = try Canvas(size: PixelSize(width: side * 2, height: side * 2))
        let style = TextStyle(fontFamily: "Noto Sans", fontSize: Double(side) * 0.62, lineSpacing: 1.0)
        Compositor().compose([.fill(PixelRect(size: canvas.size), .black),
                              .label(Label(String(letter), style: style, x: side / 4, y: side / 4, color: .white,
                                           painter: painter))], into: canvas)
        return canvas
    }

    // MARK: the clip on disk

    /// A 1.5 s attempt (each picture's grey its own, a bright square top-left), its JSON
    /// as the game writes it: the annotations, and the attempt with its cue letter and interval.
    static func recordAttempt(in folder: String, letter: Character) throws {
        try record(in: folder, name: id)
        let path = folder + "/\(id).json"
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
                                  as? [String: Any])
        object["annotations"] = ["kind": "game", "game": "game-2", "attempt": "1", "player": "Ana", "card": "poses.star",
                                 "card_title": "stretch out like a star", "rule": "simonSays", "mode": "visual",
                                 "verdict": "pass"]
        object["attempt"] = [
            "id": 1, "game": "game-2", "player": "Ana", "card": "poses.star", "card_title": "stretch out like a star",
            "instruction": "stretch out like a star", "rule": "simonSays", "mode": "visual",
            "cue_letter": String(letter), "cue_duration": cue.end - cue.start, "response_duration": 2,
            "words_per_minute": 175, "verdict": "pass", "verdicts": [] as [Any], "width": 320, "height": 240,
            "timeline": ["cue_onset": cue.start, "cue_end": cue.end, "end": 1.5],
        ] as [String: Any]
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    }

    /// The JSON says the cue export `ID.cue.mp4` is ready, as the game writes it then.
    static func markCueExportReady(in folder: String) throws {
        let path = folder + "/\(id).json"
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
                                  as? [String: Any])
        var annotations = object["annotations"] as? [String: String] ?? [:]
        annotations["export"] = "\(id).cue.mp4"
        annotations["export_state"] = "ready"
        object["annotations"] = annotations
        object["export"] = ["kind": "cue", "state": "ready", "file": "\(id).cue.mp4"]
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    }

    /// 45 pictures at 30 fps, each of its own grey (`tinted`: red) with a bright square
    /// top-left, and a quiet tone.
    static func record(in folder: String, name: String, tinted: Bool = false) throws {
        var settings = RecorderSettings()
        settings.preset = "ultrafast"
        settings.queueLimit = 10_000
        let recorder = try Recorder(folder: folder, name: name, video: VideoTrackFormat(format: .yuyv, width: 320, height: 240),
                                    audio: AudioTrackFormat(sampleRate: 48_000, channels: 1), origin: 0, settings: settings)
        for k in 0..<155 {
            recorder.append(RecorderAudioChunk(samples: (0..<480).map { Int16(3000 * sin(Double(k * 480 + $0) / 20)) },
                                               timestamp: Double(k) * 0.01))
        }
        for index in 0..<frames {
            // YUYV: Y U Y V; a V above 128 tints red.
            var bytes = [UInt8](repeating: 128, count: 320 * 240 * 2)
            for pair in 0..<(320 * 240 / 2) where tinted { bytes[pair * 4 + 3] = 200 }
            for y in 0..<240 {
                for x in 0..<320 { bytes[(y * 320 + x) * 2] = x < 64 && y < 64 ? 235 : luma(index) }
            }
            recorder.append(RecorderVideoFrame(format: .yuyv, width: 320, height: 240, bytesPerLine: 640,
                                               timestamp: Double(index) / 30, bytes: RecordedBytes(bytes)))
        }
        _ = try recorder.finish(annotations: ["kind": "game"])
    }
}
