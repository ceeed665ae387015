import Foundation
import Testing
@testable import Kiosk
@testable import Stage

/// Real-device proof, run inside the virtual rig (vrig/uinput/input-proof): a uinput
/// touchscreen and keyboard made by vrig/uinput/rig_uinput.py, the kernel's evdev and
/// uinput drivers, systemd-udevd and libinput, read by `InputDevices` on a real
/// `EventLoop`. Skipped unless RIG_VRIG_INPUT=1 (it needs root, /dev/uinput and udevd).
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["RIG_VRIG_INPUT"] == "1"))
final class InputRigTests {
    /// The uinput player, driven line by line. Its output is read on the event loop, so
    /// libinput events (and key-repeat timers) are handled while a gesture is played.
    final class Player {
        // posix_spawn and plain pipes, not Foundation's Process: in the guest its
        // CFSocket wake-up pair cannot be made and exit monitoring never fires.
        private var pid: pid_t = 0
        private let toPlayer: Int32
        private let fromPlayer: Int32
        private var buffer: [UInt8] = []
        private var lines: [String] = []

        init(loop: EventLoop) throws {
            let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let script = repo.appendingPathComponent("vrig/uinput/rig_uinput.py").path
            var stdinPipe: [Int32] = [0, 0], stdoutPipe: [Int32] = [0, 0]
            guard pipe(&stdinPipe) == 0, pipe(&stdoutPipe) == 0 else { throw SystemError.call("pipe", errno) }
            // Only the dup2'ed copies may reach the player, or it never sees end of input.
            for fd in stdinPipe + stdoutPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
            posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
            let words = ["/usr/bin/python3", script, "--touch-name", "rig outer touch",
                         "--width", "1920", "--height", "1080",
                         "--inner-touch-name", "rig inner touch", "--mouse-name", "rig operator mouse"]
            var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            let status = posix_spawn(&pid, "/usr/bin/python3", &actions, nil, &argv, environ)
            close(stdinPipe[0])
            close(stdoutPipe[1])
            toPlayer = stdinPipe[1]
            fromPlayer = stdoutPipe[0]
            guard status == 0 else { throw SystemError.call("posix_spawn", status) }
            let fd = fromPlayer
            loop.addReader(fd: fd, name: "uinput player") { [weak self] in
                guard let self else { return }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = read(fd, &chunk, chunk.count)
                if count > 0 { self.buffer += chunk[..<count] }
                while let newline = self.buffer.firstIndex(of: 0x0A) {
                    self.lines.append(String(decoding: self.buffer[..<newline], as: UTF8.self))
                    self.buffer.removeSubrange(...newline)
                }
            }
        }

        deinit {
            send("quit")
            close(toPlayer)
            var status: Int32 = 0
            let deadline = MonotonicTime.now() + 10
            while waitpid(pid, &status, WNOHANG) == 0 {
                if MonotonicTime.now() > deadline {
                    kill(pid, SIGKILL)
                    waitpid(pid, &status, 0)
                    break
                }
                usleep(20_000)
            }
            close(fromPlayer)
        }

        private func send(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBufferPointer { write(toPlayer, $0.baseAddress, $0.count) }
        }

        func nextLine(_ runUntil: (() -> Bool) -> Bool) -> String {
            _ = runUntil { !self.lines.isEmpty }
            return lines.isEmpty ? "" : lines.removeFirst()
        }

        /// Plays one command; returns the monotonic stamps it printed (before down, before up).
        func play(_ command: String, _ runUntil: (() -> Bool) -> Bool) -> [Double] {
            send(command)
            let line = nextLine(runUntil)
            #expect(line.hasPrefix("ok "), "player: \(line)")
            let stamps = line.split(separator: "@", maxSplits: 1).dropFirst().first ?? ""
            return stamps.split(separator: " ").compactMap { Double($0) }
        }
    }

    let loop: EventLoop
    let player: Player
    var events: [InputEvent] = []
    /// When each event reached the handler, to report delivery delay (event time to handler).
    var receivedAt: [Double] = []
    var traces: [String] = []
    var devices: InputDevices?

    init() throws {
        loop = try EventLoop()
        player = try Player(loop: loop)
        // The first start reads Python and the evdev module over 9p under TCG: slow.
        #expect(player.nextLine { runUntil(seconds: 90, $0) }.hasPrefix("ready "))
        _ = play("wait-device 10")
        var configuration = InputConfiguration()
        configuration.outerTouch = .name("rig outer touch")
        configuration.innerWidth = 1280
        configuration.innerHeight = 800
        devices = try InputDevices(loop: loop, configuration: configuration, opener: DirectInputDeviceOpener()) {
            [unowned self] event in
            events.append(event)
            receivedAt.append(MonotonicTime.now())
        }
        devices?.trace = { [unowned self] line in traces.append(line) }
        #expect(runUntil {
            ["rig outer touch", "rig operator keyboard", "rig inner touch", "rig operator mouse"]
                .allSatisfy { self.added($0) != nil }
        })
    }

    private func added(_ name: String) -> InputDeviceInfo? {
        for case let .deviceAdded(info) in events where info.name == name { return info }
        return nil
    }

    /// Runs the loop until `condition` holds or 15 s pass (TCG guests are slow).
    private func runUntil(_ condition: () -> Bool) -> Bool { runUntil(seconds: 15, condition) }

    private func runUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = loop.clock() + seconds
        while !condition() && loop.clock() < deadline { loop.runOnce(timeout: 0.05) }
        return condition()
    }

    private func play(_ command: String) -> [Double] { player.play(command, runUntil) }

    private var taps: [Double] {
        events.compactMap { if case let .outerTap(time) = $0 { time } else { nil } }
    }

    private var keys: [(KeyAction, Double, Bool)] {
        events.compactMap { if case let .key(press) = $0, let action = press.action { (action, press.time, press.isRepeat) } else { nil } }
    }

    @Test func devicesGetTheirRoles() {
        #expect(added("rig outer touch")?.role == .outerTouchscreen)
        #expect(added("rig outer touch")?.capabilities.contains(.touch) == true)
        #expect(added("rig operator keyboard")?.role == .inner)
        #expect(added("rig operator keyboard")?.capabilities.contains(.keyboard) == true)
    }

    @Test func innerTouchAndMouseGoToTheInnerDisplay() {
        #expect(added("rig inner touch")?.role == .inner)
        _ = play("itap 960 540 40")
        #expect(runUntil { self.events.contains { if case .innerTouch(.up, _, _, _, _) = $0 { true } else { false } } })
        let down = events.compactMap { event -> (Double, Double)? in
            if case let .innerTouch(.down, _, x, y, _) = event { (x, y) } else { nil }
        }.first
        // Sensor centre (960 of 1920, 540 of 1080) lands at the inner display's centre.
        #expect(down.map { abs($0.0 - 640) < 1 && abs($0.1 - 400) < 1 } == true, "\(String(describing: down))")
        #expect(taps.isEmpty)
        _ = play("mouse 100 -50")
        _ = play("click")
        #expect(runUntil { self.events.contains { if case .innerPointer(_, _, .some(let b), _) = $0 { !b.isPressed } else { false } } })
        let pressed = events.compactMap { event -> (Double, Double, UInt32)? in
            if case let .innerPointer(x, y, .some(button), _) = event, button.isPressed { (x, y, button.code) } else { nil }
        }.first
        // The pointer starts at the inner centre; libinput may accelerate the motion.
        #expect(pressed.map { $0.2 == 0x110 && $0.0 > 640 && $0.1 < 400 } == true, "\(String(describing: pressed))")
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
        #expect(devices?.counters.taps == 1)
        #expect(devices?.statusJSON["taps"] == .int(1))
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
        #expect(devices?.counters.rejected == ["moved": 1, "held_too_long": 1, "second_finger": 1, "palm": 1])
    }

    private var presses: [KeyPress] {
        events.compactMap { if case let .key(press) = $0 { press } else { nil } }
    }

    @Test func keysBecomeActionsAndHeldKeysRepeat() {
        let space = play("key SPACE 40")
        _ = play("key DOT 40")
        #expect(runUntil { self.keys.count >= 2 })
        #expect(keys.first?.0 == .playPause && keys.first?.2 == false)
        if let time = keys.first?.1, space.count == 2 { #expect(time >= space[0] && time < space[1]) }
        #expect(keys.dropFirst().first?.0 == .blank)
        let delays = zip(events, receivedAt).compactMap { event, received -> Double? in
            if case let .key(press) = event, !press.isRepeat { (received - press.time) * 1000 } else { nil }
        }
        print("input-proof: key event time to handler: \(delays.map { String(format: "%.1f ms", $0) })")
        // Held 900 ms: the press, then repeats from 0.4 s at 0.1 s intervals (the
        // README's delay and rate).
        let up = play("key UP 900")
        #expect(runUntil { self.keys.contains { $0.0 == .faster && !$0.2 } })
        #expect(runUntil { self.keys.filter { $0.0 == .faster && $0.2 }.count >= 4 })
        let repeatTimes = keys.filter { $0.0 == .faster && $0.2 }.map(\.1)
        if let pressed = keys.first(where: { $0.0 == .faster && !$0.2 })?.1, let first = repeatTimes.first {
            // One repeat per 0.1 s of the hold after the first 0.4 s (the player's hold
            // stretches under TCG, so the count follows its release stamp).
            if up.count == 2 {
                let expected = Int(((up[1] - pressed - 0.4) / 0.1).rounded(.down)) + 1
                #expect(abs(repeatTimes.count - expected) <= 1,
                        "\(repeatTimes.count) repeats in a \(up[1] - pressed) s hold (expected \(expected))")
            }
            #expect(abs(first - pressed - 0.4) < 0.03, "first repeat \(first - pressed) s after the press")
            let gaps = zip(repeatTimes.dropFirst(), repeatTimes).map { $0 - $1 }.sorted()
            let median = gaps.isEmpty ? 0 : gaps[gaps.count / 2]
            #expect(abs(median - 0.1) < 0.015, "repeats every \(median) s (gaps \(gaps))")
        }
        if up.count == 2 { #expect(repeatTimes.allSatisfy { $0 < up[1] }, "a repeat after the release") }
        // Every held key repeats now, for text editing; the app acts on repeats of the
        // speed keys only (KioskApp.handle).
        _ = play("key SPACE 900")
        #expect(runUntil { self.keys.contains { $0.0 == .playPause && $0.2 } })
        #expect(keys.filter { $0.0 == .playPause && !$0.2 }.count == 2)
    }

    /// The keymap (rig.toml [keyboard], "us" here) over a real keyboard: text with Shift
    /// as this device holds it, editing keys as symbols, repeats for BackSpace, none for Shift.
    @Test func keysTypeTextOnTheLayout() {
        #expect(devices?.keymap?.layoutName == "English (US)", "\(String(describing: devices?.keymapError))")
        _ = play("key LEFTSHIFT+H 40")
        _ = play("key I 40")
        _ = play("key ENTER 40")
        #expect(runUntil { self.presses.contains { $0.symbol == .enter } })
        let typed = presses.filter { !$0.isRepeat }.compactMap(\.text)
        #expect(typed == ["H", "i"], "\(presses)")
        #expect(presses.first { $0.code == 35 }?.modifiers == .shift)
        #expect(presses.first { $0.code == 23 }?.modifiers == [])
        #expect(presses.first { $0.symbol == .enter }?.text == nil)
        _ = play("key BACKSPACE 700")
        #expect(runUntil { self.presses.contains { $0.symbol == .backspace && $0.isRepeat } })
        #expect(presses.filter { $0.symbol == .backspace && $0.isRepeat }.allSatisfy { $0.text == nil })
        _ = play("key LEFTSHIFT 700")
        // The release was read; had Shift repeated, its repeats would be queued by now.
        _ = play("key I 40")
        #expect(runUntil { self.presses.filter { $0.code == 23 }.count == 2 })
        #expect(presses.filter { $0.code == 42 }.count == 2, "Shift pressed twice, never repeated")
        #expect(presses.last { $0.code == 23 }?.text == "i")
    }

    /// The unprivileged path: devices opened by seatd through libseat (input-proof
    /// starts seatd in the guest with SEATD_VTBOUND=0, as there is no VT to bind to).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/run/seatd.sock")))
    func devicesOpenThroughSeatd() throws {
        setenv("LIBSEAT_BACKEND", "seatd", 1)
        let seat = try SeatSession()
        try seat.waitUntilEnabled(timeout: 10)
        #expect(seat.enabled)
        loop.addReader(fd: seat.fd, name: "seat") { seat.dispatch() }
        var seatEvents: [InputEvent] = []
        var configuration = InputConfiguration()
        configuration.outerTouch = .name("rig outer touch")
        let seated = try InputDevices(loop: loop, configuration: configuration, opener: SeatInputDeviceOpener(seat: seat)) { seatEvents.append($0) }
        #expect(runUntil { seatEvents.contains { if case let .deviceAdded(info) = $0 { info.name == "rig outer touch" } else { false } } })
        let stamps = play("tap 700 300 50")
        #expect(runUntil { seatEvents.contains { if case .outerTap = $0 { true } else { false } } })
        let tap = seatEvents.compactMap { if case let .outerTap(time) = $0 { time } else { nil } }.first
        if let tap, stamps.count == 2 { #expect(tap >= stamps[0] && tap < stamps[1]) }
        withExtendedLifetime(seated) {}
    }
}
