import Foundation
import Glibc
import Testing
import Stage
@testable import Kiosk

/// Several rigs, one script: a lead kiosk and three followers (other font sizes, one
/// mirrored), each `rig run --backend headless` in a network namespace of its own, joined
/// to the lead's by a veth pair the test makes, each follower's link relayed in its
/// namespace through 20 ms of jitter and 2 % loss (`FaultyLink`). Needs root for the
/// namespaces (CI and this machine run as root); skipped with the reason otherwise.
@Suite(.serialized) final class FollowRigKioskTests {
    static let key = "follow-key-0123456789abcdef0123456789"
    static let port = 18_490
    static var canMakeNamespaces: Bool { geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") }

    let tag = String(UUID().uuidString.prefix(6)).lowercased()
    let folder: URL
    var namespaces: [String] = []
    var lead: RigProcess?
    var followers: [RigProcess] = []
    var links: [FaultyLink] = []

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-follow-\(tag)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("lead/scripts"), withIntermediateDirectories: true)
        let words = (0..<3000).map { "word\($0 % 97)" }.joined(separator: " ")
        try Data("# Long\n\n\(words)\n\n# Second part\n\n\(words)\n".utf8)
            .write(to: folder.appendingPathComponent("lead/scripts/long.md"))
        try Data("# Short\n\nA short text for the second script.\n".utf8).write(to: folder.appendingPathComponent("lead/scripts/short.md"))
    }

    deinit {
        links.forEach { $0.stop() }
        for process in followers + [lead].compactMap({ $0 }) { kill(process.pid, SIGTERM); _ = process.wait(seconds: 5) }
        for name in namespaces { _ = Self.ip(["netns", "delete", name]) }
        // RIG_KEEP=1 keeps the rigs' folder, their logs in it, to read after a failure.
        if ProcessInfo.processInfo.environment["RIG_KEEP"] == nil { try? FileManager.default.removeItem(at: folder) }
    }

    @discardableResult
    static func ip(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// The lead's namespace and one per follower, each follower joined to the lead by a
    /// veth pair on 10.78.N.0/24 (the lead is .1 on each). The follower knows the lead as
    /// 10.77.N.1, which the lead also has and the follower's namespace has on its loopback,
    /// where its `FaultyLink` listens.
    func makeNetwork(followers count: Int) throws {
        let leadNS = "rigl-\(tag)"
        try #require(Self.ip(["netns", "add", leadNS]))
        namespaces.append(leadNS)
        Self.ip(["-n", leadNS, "link", "set", "lo", "up"])
        for n in 1...count {
            let ns = "rigf\(n)-\(tag)"
            try #require(Self.ip(["netns", "add", ns]))
            namespaces.append(ns)
            Self.ip(["-n", ns, "link", "set", "lo", "up"])
            try #require(Self.ip(["link", "add", "rl\(n)\(tag)", "netns", leadNS, "type", "veth", "peer", "name", "rf\(n)\(tag)", "netns", ns]))
            Self.ip(["-n", leadNS, "addr", "add", "10.77.\(n).1/24", "dev", "rl\(n)\(tag)"])
            Self.ip(["-n", leadNS, "addr", "add", "10.78.\(n).1/24", "dev", "rl\(n)\(tag)"])
            Self.ip(["-n", leadNS, "link", "set", "rl\(n)\(tag)", "up"])
            Self.ip(["-n", ns, "addr", "add", "10.78.\(n).2/24", "dev", "rf\(n)\(tag)"])
            Self.ip(["-n", ns, "addr", "add", "10.77.\(n).1/32", "dev", "lo"])
            Self.ip(["-n", ns, "link", "set", "rf\(n)\(tag)", "up"])
        }
    }

    func config(_ name: String, body: String) throws -> URL {
        let dir = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        let text = """
            [displays]
            headless_width = 640
            headless_height = 360
            [camera]
            enabled = false
            [audio]
            output = ""
            input = ""
            [control]
            socket = "\(dir.appendingPathComponent("control.sock").path)"
            [state]
            dir = "\(dir.appendingPathComponent("state").path)"
            \(body)
            """
        let url = dir.appendingPathComponent("rig.toml")
        try Data(text.utf8).write(to: url)
        return url
    }

    func socket(_ name: String) -> String { folder.appendingPathComponent("\(name)/control.sock").path }

    func startLead() throws {
        let url = try config("lead", body: """
            [prompter]
            scripts_dir = "\(folder.appendingPathComponent("lead/scripts").path)"
            speed = 90
            font_size = 48
            [remote]
            enabled = true
            bind = "0.0.0.0"
            port = \(Self.port)
            allow = ["10.78.0.0/16"]
            [remote.api_keys]
            followers = "\(Self.key)"
            """)
        lead = try RigProcess(["run", "--backend", "headless", "--config", url.path],
                              standardError: folder.appendingPathComponent("lead.log"), namespace: namespaces[0])
    }

    func request(_ name: String, _ request: ControlRequest) -> JSONValue? {
        guard let connection = try? ControlConnection(path: socket(name)) else { return nil }
        return try? connection.request(request, timeout: 5)
    }

    func waitFor(_ seconds: Double, _ what: String, _ condition: () -> Bool) -> Bool {
        let deadline = Date() + seconds
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        print("follow rigs: waited \(seconds) s for \(what)")
        return false
    }

    func followRig(_ name: String) -> JSONValue? { request(name, .status)?["follow_rig"] }

    @Test func threeFollowersTrackTheLeadThroughPlaySpeedJumpsScriptsOutagesAndTakeover() throws {
        guard Self.canMakeNamespaces else {
            print("follow rigs: skipped (network namespaces need root and ip)")
            return
        }
        try makeNetwork(followers: 3)
        try startLead()
        let sizes = [(36, false), (60, false), (72, true)]
        for (n, (size, mirror)) in sizes.enumerated() {
            let link = try FaultyLink(namespace: namespaces[n + 1],
                                      address: try #require(SocketAddress(host: "10.77.\(n + 1).1", port: Self.port)),
                                      lead: try #require(SocketAddress(host: "10.78.\(n + 1).1", port: Self.port)))
            link.faults = .sharedNetwork
            links.append(link)
            let url = try config("f\(n + 1)", body: """
                [prompter]
                font_size = \(size)
                mirror = \(mirror)
                [follow_rig]
                leader = "http://10.77.\(n + 1).1:\(Self.port)"
                key = "\(Self.key)"
                """)
            followers.append(try RigProcess(["run", "--backend", "headless", "--config", url.path],
                                            standardError: folder.appendingPathComponent("f\(n + 1).log"),
                                            namespace: namespaces[n + 1]))
        }
        let names = ["f1", "f2", "f3"]
        #expect(waitFor(30, "the lead's control socket") { request("lead", .status) != nil })
        _ = request("lead", .open("long.md"))
        _ = request("lead", .play)
        try #require(waitFor(30, "every follower following") {
            names.allSatisfy { followRig($0)?["state"]?.stringValue == "following" }
        })
        for name in names { #expect(request(name, .status)?["prompter"]?["script"]?.stringValue == "long.md") }

        // Playing: each follower's own measure against the lead's anchor, in px and in
        // frames of its own motion (its rate over the sample: its status says the speed
        // clamped to the keys' range, and a larger font moves more px than the lead's),
        // and its word.
        struct Sampled { var px: [Double] = [], frames: [Double] = [], words: [Int] = [] }
        func sample(seconds: Double, label: String) -> Sampled {
            var sampled = Sampled()
            var offsets: [String: [(time: Double, px: Double, y: Double)]] = [:]
            var words: [Int] = []
            // The largest offset with what the follower said of its link then, to tell a
            // late anchor or a clock step from the follower's own steering.
            var worst: (px: Double, line: String) = (-1, "")
            let end = Date() + seconds
            while Date() < end {
                for name in names {
                    guard let status = request(name, .status), let rig = status["follow_rig"],
                          let offset = rig["offset_px"]?.numberValue, let w = rig["offset_words"]?.numberValue,
                          let y = status["prompter"]?["offset"]?.numberValue else { continue }
                    offsets[name, default: []].append((Date().timeIntervalSince1970, offset, y))
                    words.append(abs(Int(w)))
                    if abs(offset) > worst.px {
                        worst = (abs(offset), "\(name): anchor age \(rig["anchor_age_ms"]?.numberValue ?? .nan) ms, "
                                 + "clock offset \(rig["clock_offset_ms"]?.numberValue ?? .nan) ms, "
                                 + "round trip \(rig["round_trip_ms"]?.numberValue ?? .nan) ms")
                    }
                }
                usleep(100_000)
            }
            for series in offsets.values {
                guard let first = series.first, let last = series.last, last.time > first.time else { continue }
                let frameOfMotion = max(abs(last.y - first.y) / (last.time - first.time) / 60, 0.5)
                sampled.px += series.map { abs($0.px) }
                sampled.frames += series.map { abs($0.px) / frameOfMotion }
            }
            sampled.px.sort()
            sampled.frames.sort()
            sampled.words = words
            func at(_ values: [Double], _ share: Double) -> String {
                values.isEmpty ? "-" : String(format: "%.2f", values[min(Int(Double(values.count) * share), values.count - 1)])
            }
            let sameWord = words.isEmpty ? 0 : Double(words.filter { $0 == 0 }.count) / Double(words.count)
            print("follow rigs, \(label): \(sampled.px.count) samples, |offset| median \(at(sampled.px, 0.5)) px, "
                  + "p95 \(at(sampled.px, 0.95)) px, max \(at(sampled.px, 1)) px; in frames of motion median "
                  + "\(at(sampled.frames, 0.5)), p95 \(at(sampled.frames, 0.95)), max \(at(sampled.frames, 1)); "
                  + "same word as the anchor \(String(format: "%.0f", sameWord * 100)) %; "
                  + "the largest offset on \(worst.line)")
            return sampled
        }
        func median(_ values: [Double]) -> Double { values.isEmpty ? .infinity : values[values.count / 2] }
        func ninetieth(_ values: [Double]) -> Double { values.isEmpty ? .infinity : values[values.count * 9 / 10] }
        // Opening a 6000-word script in four debug kiosks on two cores takes the loops a
        // while: the followers settle first, then are measured. Settled is each within
        // 3 px for half a second: the catch-up after the first glide overshoots and rings
        // (seen: 8 px past the place 0.4 s after crossing it), and one reading within
        // 3 px can be that crossing.
        var settledSince: Date?
        #expect(waitFor(10, "followers settled") {
            let within = names.allSatisfy { (followRig($0)?["offset_px"]?.numberValue).map { abs($0) < 3 } ?? false }
            settledSince = within ? settledSince ?? Date() : nil
            return settledSince.map { Date().timeIntervalSince($0) >= 0.5 } ?? false
        })
        // The goal is a frame of motion (1.5 px at 90 px/s on the lead, up to 2.2 px on
        // the followers): the median well within it and nine in ten within it, with the
        // status read at any moment of a frame. On the anchor's line (or within a pixel
        // of it, at a line's edge) nine in ten.
        let steady = sample(seconds: 3, label: "playing at 90 px/s")
        #expect(steady.px.count > 30)
        #expect(median(steady.frames) <= 0.5)
        #expect(ninetieth(steady.frames) <= 1)
        #expect(steady.words.filter { $0 == 0 }.count * 10 >= steady.words.count * 9)

        // A speed change reaches the followers a network's delay after the lead's ramp
        // began: each falls behind by about half that delay's worth, then closes the gap.
        // The state that carries it may be one of the 2 % resent 200 ms late: at most
        // (30 + 200) ms / 2 of the change, 37 px, about 4 frames of the 72 px follower's
        // motion (seen once in CI: 19.8 px, 2.1 frames).
        _ = request("lead", .speed(200))
        let change = sample(seconds: 1.5, label: "the 1.5 s after 90 -> 200 px/s")
        #expect((change.frames.last ?? .infinity) <= 5)
        #expect(waitFor(3, "followers settled at the new speed") {
            names.allSatisfy { (followRig($0)?["offset_px"]?.numberValue).map { abs($0) < 3 } ?? false }
        })
        let fast = sample(seconds: 2, label: "playing at 200 px/s")
        #expect(median(fast.frames) <= 0.5)
        #expect(ninetieth(fast.frames) <= 1)

        // A marker jump on the lead: every follower's reading line on the lead's word.
        _ = request("lead", .pause)
        _ = request("lead", .marker(action: "jump", to: "Second part"))
        #expect(waitFor(3, "followers at the marker") {
            guard let leadWord = request("lead", .status)?["prompter"]?["word"]?.numberValue else { return false }
            return names.allSatisfy { request($0, .status)?["prompter"]?["word"]?.numberValue == leadWord }
        })

        // Another script on the lead: every follower shows it.
        _ = request("lead", .open("short.md"))
        #expect(waitFor(5, "followers on the lead's second script") {
            names.allSatisfy { request($0, .status)?["prompter"]?["script"]?.stringValue == "short.md" }
        })
        _ = request("lead", .open("long.md"))
        _ = request("lead", .play)
        #expect(waitFor(5, "followers back on long.md, following") {
            names.allSatisfy { followRig($0)?["state"]?.stringValue == "following" && request($0, .status)?["prompter"]?["script"]?.stringValue == "long.md" }
        })

        // The lead killed: "lost" and the banner; restarted: following again, caught up.
        kill(lead!.pid, SIGKILL)
        _ = lead!.wait(seconds: 5)
        #expect(waitFor(5, "followers lost") {
            names.allSatisfy { followRig($0)?["state"]?.stringValue == "lost" }
        })
        let banner = request("f1", .status)?["problems"]
        #expect(banner?.serialized.contains("lead lost") == true, "f1's banner: \(banner?.serialized ?? "none")")
        try startLead()
        #expect(waitFor(30, "the lead back") { request("lead", .status) != nil })
        _ = request("lead", .play)
        #expect(waitFor(10, "followers following the restarted lead") {
            names.allSatisfy { followRig($0)?["state"]?.stringValue == "following" }
        })
        #expect(waitFor(3, "followers caught up") {
            names.allSatisfy { (followRig($0)?["offset_px"]?.numberValue).map { abs($0) < 6 } ?? false }
        })

        // f1's operator takes over: the lead's speed no longer reaches it; handed back, it follows.
        let took = request("f1", .key(.followRig))
        #expect(took?["ok"]?.boolValue == true)
        #expect(followRig("f1")?["state"]?.stringValue == "local")
        let speedHere = request("f1", .status)?["prompter"]?["speed"]?.numberValue
        _ = request("lead", .speed(150))
        #expect(waitFor(2, "f2 at the lead's new speed") {
            (followRig("f2")?["offset_px"]?.numberValue).map { abs($0) < 6 } ?? false
        })
        #expect(request("f1", .status)?["prompter"]?["speed"]?.numberValue == speedHere)
        _ = request("f1", .followRig(local: false))
        #expect(waitFor(5, "f1 following again") { followRig("f1")?["state"]?.stringValue == "following" })
        #expect(waitFor(3, "f1 caught up") { (followRig("f1")?["offset_px"]?.numberValue).map { abs($0) < 6 } ?? false })
        let relayed = links.map(\.counts)
        print("follow rigs: relayed \(relayed.map(\.chunks).reduce(0, +)) chunks, \(relayed.map(\.lost).reduce(0, +)) lost and resent")
        #expect(relayed.map(\.lost).reduce(0, +) > 0, "the links lost no chunk: \(relayed)")
    }
}
