import Foundation
import Testing
@testable import Kiosk

/// Real-device proof, run inside the virtual rig (vrig/uinput/input-proof): a uinput
/// touchscreen and keyboard made by vrig/uinput/rig_uinput.py, the kernel's evdev and
/// uinput drivers, systemd-udevd and libinput, read by `InputDevices` on a real
/// `EventLoop`. Skipped unless RIG_VRIG_INPUT=1 (it needs root, /dev/uinput and udevd).
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["RIG_VRIG_INPUT"] == "1"))
final class InputRigTests {
    /// The uinput player, driven line by line. Its output is read on the event loop, so
    /// libinput events (and key-repeat timers) are handled while a gesture is played.
    final class Player {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        private var buffer = Data()
        private var lines: [String] = []

        init(loop: EventLoop) throws {
            let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [repo.appendingPathComponent("vrig/uinput/rig_uinput.py").path,
                                 "--touch-name", "rig outer touch", "--width", "1920", "--height", "1080"]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            let fd = output.fileHandleForReading.fileDescriptor
            loop.addReader(fd: fd, name: "uinput player") { [weak self] in
                guard let self else { return }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = read(fd, &chunk, chunk.count)
                if count > 0 { self.buffer.append(contentsOf: chunk[..<count]) }
                while let newline = self.buffer.firstIndex(of: 0x0A) {
                    self.lines.append(String(decoding: self.buffer[..<newline], as: UTF8.self))
                    self.buffer.removeSubrange(...newline)
                }
            }
        }

        deinit {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }

        func nextLine(_ runUntil: (() -> Bool) -> Bool) -> String {
            _ = runUntil { !self.lines.isEmpty }
            return lines.isEmpty ? "" : lines.removeFirst()
        }

        /// Plays one command; returns the monotonic stamps it printed (before down, before up).
        func play(_ command: String, _ runUntil: (() -> Bool) -> Bool) -> [Double] {
            input.fileHandleForWriting.write(Data((command + "\n").utf8))
            let line = nextLine(runUntil)
            #expect(line.hasPrefix("ok "), "player: \(line)")
            return line.split(separator: " ").compactMap { Double($0) }.filter { $0 > 1 }
        }
    }

    let loop: EventLoop
    let player: Player
    var events: [InputEvent] = []
    var traces: [String] = []
    var devices: InputDevices?

    init() throws {
        loop = try EventLoop()
        player = try Player(loop: loop)
        #expect(player.nextLine(runUntil).hasPrefix("ready "))
        _ = play("wait-device 20")
        var configuration = InputConfiguration()
        configuration.outerTouch = .name("rig outer touch")
        devices = try InputDevices(loop: loop, configuration: configuration, opener: DirectInputDeviceOpener()) {
            [unowned self] event in events.append(event)
        }
        devices?.trace = { [unowned self] line in traces.append(line) }
        #expect(runUntil { self.added("rig outer touch") != nil && self.added("rig operator keyboard") != nil })
    }

    private func added(_ name: String) -> InputDeviceInfo? {
        for case let .deviceAdded(info) in events where info.name == name { return info }
        return nil
    }

    /// Runs the loop until `condition` holds or 15 s pass (TCG guests are slow).
    private func runUntil(_ condition: () -> Bool) -> Bool {
        let deadline = loop.clock() + 15
        while !condition() && loop.clock() < deadline { loop.runOnce(timeout: 0.05) }
        return condition()
    }

    private func play(_ command: String) -> [Double] { player.play(command, runUntil) }

    private var taps: [Double] {
        events.compactMap { if case let .outerTap(time) = $0 { time } else { nil } }
    }

    private var keys: [(KeyAction, Double, Bool)] {
        events.compactMap { if case let .key(action, time, isRepeat) = $0 { (action, time, isRepeat) } else { nil } }
    }

    @Test func devicesGetTheirRoles() {
        #expect(added("rig outer touch")?.role == .outerTouchscreen)
        #expect(added("rig outer touch")?.capabilities.contains(.touch) == true)
        #expect(added("rig operator keyboard")?.role == .inner)
        #expect(added("rig operator keyboard")?.capabilities.contains(.keyboard) == true)
    }

    @Test func tapBecomesOuterTapWithTheDownEventsTime() {
        let stamps = play("tap 960 540 60")
        #expect(runUntil { !self.taps.isEmpty })
        #expect(traces.contains { $0.contains("outer touch down") })
        #expect(traces.contains { $0.contains("outer touch up") })
        guard stamps.count == 2, let tap = taps.first else {
            Issue.record("no tap: \(traces)")
            return
        }
        // The kernel stamped the down event between the player's two writes.
        #expect(tap >= stamps[0] && tap < stamps[1], "tap \(tap) not within \(stamps)")
        #expect(taps.count == 1)
    }

    @Test func swipeLongPressAndSecondFingerAreNotTaps() {
        _ = play("swipe 200 540 1400 540 150")
        #expect(runUntil { self.traces.contains { $0.hasPrefix("not a tap: moved") } })
        _ = play("hold 500 500 600")
        #expect(runUntil { self.traces.contains { $0.hasPrefix("not a tap: heldTooLong") } })
        _ = play("twofinger 500 500 900 500 60")
        #expect(runUntil { self.traces.contains { $0.hasPrefix("not a tap: secondFinger") } })
        _ = play("palm 800 800 5")
        #expect(runUntil { self.traces.contains { $0.hasPrefix("not a tap: palm") } })
        #expect(taps.isEmpty, "\(traces)")
    }

    @Test func keysBecomeActionsAndOnlySpeedKeysRepeat() {
        let space = play("key SPACE 40")
        _ = play("key DOT 40")
        #expect(runUntil { self.keys.count >= 2 })
        #expect(keys.first?.0 == .playPause && keys.first?.2 == false)
        if let time = keys.first?.1, space.count == 2 { #expect(time >= space[0] && time < space[1]) }
        #expect(keys.dropFirst().first?.0 == .blank)
        // Held 900 ms: the press, then repeats from 0.4 s at 0.1 s intervals.
        _ = play("key UP 900")
        #expect(runUntil { self.keys.contains { $0.0 == .faster && !$0.2 } })
        let repeats = keys.filter { $0.0 == .faster && $0.2 }.count
        #expect(repeats >= 3, "repeats \(repeats)")
        _ = play("key SPACE 900")
        #expect(runUntil { self.keys.filter { $0.0 == .playPause }.count == 2 })
        #expect(!keys.contains { $0.0 == .playPause && $0.2 })
    }
}
