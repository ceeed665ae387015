import Kiosk
import Stage

/// One case run alone, so callgrind counts its instructions and nothing else's.
enum BenchCase: Equatable, Sendable {
    /// `uncached`: from sources that outgrow the cache (FloorBench).
    case floor(BenchReport.Display, uncached: Bool = false)
    /// `speed` in px/s: the full run's 180 moves by whole pixels on 60 Hz, so every
    /// frame copies the same row phase; another speed shows what changing phases cost.
    case compose(BenchReport.Display, sizePx: Int, BenchReport.Transform, speed: Int = OuterFrameBench.speed)
    case layout(sizePx: Int)
    case camera
    case console(BenchReport.Display)
    case speech
    /// The follow passage heard once (`frames` is ignored); the figures on stderr.
    case follow
    /// A prompter take at full load for `frames` camera frames (30 fps); figures on stderr.
    case recordingLoad
    /// Every speed on every refresh grid (ScrollSmoothnessBench), `frames` steps each;
    /// the table on stdout.
    case smoothness(BenchReport.Display)
    /// A marked script against the same text unmarked (MarkupBench); the table on stdout.
    case markup
    /// Smoothness on a running headless kiosk's shown frames (KioskSmoothnessBench),
    /// `frames` steps per speed; the table on stdout.
    case kioskSmoothness(BenchReport.Display, BenchReport.Transform)
    /// A lead kiosk playing alone and with 8 follower links (FollowRigsBench), `frames`
    /// outer flips each; the table on stdout.
    case followRigs

    static func parse(_ name: String) throws(BenchOptions.ParseError) -> BenchCase {
        let parts = name.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        switch parts.first {
        case "floor" where parts.count == 2:
            return .floor(try display(parts[1], in: name))
        case "floor" where parts.count == 3 && parts[2] == "uncached":
            return .floor(try display(parts[1], in: name), uncached: true)
        case "compose" where (3...5).contains(parts.count):
            return .compose(try display(parts[1], in: name), sizePx: try size(parts[2], in: name),
                            try transform(parts.count >= 4 ? parts[3] : "identity", in: name),
                            speed: parts.count == 5 ? try speed(parts[4], in: name) : OuterFrameBench.speed)
        case "layout" where parts.count == 2:
            return .layout(sizePx: try size(parts[1], in: name))
        case "camera" where parts.count == 1:
            return .camera
        case "speech" where parts.count == 1:
            return .speech
        case "follow" where parts.count == 1:
            return .follow
        case "smoothness" where parts.count == 1:
            return .smoothness(.fullHD)
        case "smoothness" where parts.count == 2:
            return .smoothness(try display(parts[1], in: name))
        case "markup" where parts.count == 1:
            return .markup
        case "kiosk-smoothness" where (1...3).contains(parts.count):
            return .kioskSmoothness(parts.count >= 2 ? try display(parts[1], in: name) : .fullHD,
                                    try transform(parts.count == 3 ? parts[2] : "identity", in: name))
        case "follow-rigs" where parts.count == 1:
            return .followRigs
        case "recording-load" where parts.count == 1:
            return .recordingLoad
        case "console" where parts.count == 2:
            return .console(try display(parts[1], in: name))
        default:
            throw .badCase(name, "expected floor:WxH[:uncached], compose:WxH:SIZE[:TRANSFORM[:SPEED]], layout:SIZE, camera, console:WxH, speech, follow, recording-load, smoothness[:WxH], kiosk-smoothness[:WxH[:TRANSFORM]], follow-rigs or markup")
        }
    }

    private static func display(_ text: String, in name: String) throws(BenchOptions.ParseError) -> BenchReport.Display {
        let wh = text.lowercased().split(separator: "x")
        guard wh.count == 2, let w = Int(wh[0]), let h = Int(wh[1]), (16...8192).contains(w), (16...8192).contains(h)
        else { throw .badCase(name, "'\(text)' is not a display size like 1920x1080") }
        return .init(width: w, height: h)
    }

    private static func size(_ text: String, in name: String) throws(BenchOptions.ParseError) -> Int {
        guard let px = Int(text), (4...1000).contains(px) else {
            throw .badCase(name, "'\(text)' is not a text size in px (4-1000)")
        }
        return px
    }

    private static func speed(_ text: String, in name: String) throws(BenchOptions.ParseError) -> Int {
        guard let pxPerSecond = Int(text), (1...2000).contains(pxPerSecond) else {
            throw .badCase(name, "'\(text)' is not a speed in px/s (1-2000)")
        }
        return pxPerSecond
    }

    private static func transform(_ text: String, in name: String) throws(BenchOptions.ParseError) -> BenchReport.Transform {
        var t = BenchReport.Transform.identity
        guard text != "identity" else { return t }
        for part in text.split(separator: "+") {
            switch part {
            case "mirror": t.mirror = true
            case "flip": t.flip = true
            case "rot90": t.rotation = 90
            case "rot180": t.rotation = 180
            case "rot270": t.rotation = 270
            default: throw .badCase(name, "'\(part)' is not mirror, flip, rot90, rot180 or rot270")
            }
        }
        return t
    }
}
