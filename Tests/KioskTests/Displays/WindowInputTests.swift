import CInput
import CSDL
import Testing
@testable import Kiosk
@testable import Stage

/// The windows' input turned into the rig's, on a manual clock: SDL's scancodes through
/// the `[keys]` bindings, a click in the outer window through the tap recogniser.
@Suite struct WindowInputTests {
    final class Clock { var now = 50.0 }

    final class Harness {
        let clock = Clock()
        let loop: EventLoop
        var events: [InputEvent] = []
        var input: WindowInput!

        init(configuration: InputConfiguration = InputConfiguration(outerMapping: TouchMapping(width: 800, height: 450),
                                                                    innerWidth: 1024, innerHeight: 640)) throws {
            let clock = clock
            loop = try EventLoop(clock: { clock.now })
            input = WindowInput(loop: loop, configuration: configuration) { [unowned self] in self.events.append($0) }
        }

        var taps: [Double] {
            events.compactMap { if case let .outerTap(time) = $0 { time } else { nil } }
        }

        func click(at time: Double, held: Double, x: Double = 400, y: Double = 200, dragTo: Double? = nil) {
            input.handle(.pointer(.outer, x: x, y: y, button: (1, true), time: time))
            if let dragTo { input.handle(.pointer(.outer, x: dragTo, y: y, button: nil, time: time + held / 2)) }
            input.handle(.pointer(.outer, x: dragTo ?? x, y: y, button: (1, false), time: time + held))
        }
    }

    @Test func scancodesBecomeEvdevCodes() {
        #expect(SDLScancodes.evdevCode(SDL_SCANCODE_SPACE.rawValue) == UInt32(KEY_SPACE))
        #expect(SDLScancodes.evdevCode(SDL_SCANCODE_A.rawValue) == UInt32(KEY_A))
        #expect(SDLScancodes.evdevCode(SDL_SCANCODE_Z.rawValue) == UInt32(KEY_Z))
        #expect(SDLScancodes.evdevCode(SDL_SCANCODE_0.rawValue) == UInt32(KEY_0))
        #expect(SDLScancodes.evdevCode(SDL_SCANCODE_F9.rawValue) == UInt32(KEY_F9))
        #expect(SDLScancodes.evdevCode(SDL_SCANCODE_PAGEDOWN.rawValue) == UInt32(KEY_PAGEDOWN))
        #expect(SDLScancodes.evdevCode(SDL_SCANCODE_KP_0.rawValue) == UInt32(KEY_KP0))
        #expect(SDLScancodes.evdevCode(SDL_SCANCODE_RALT.rawValue) == UInt32(KEY_RIGHTALT))
    }

    @Test func spaceIsPlayPauseThroughTheBindingsAndTypesNothingTwice() throws {
        let rig = try Harness()
        rig.input.handle(.key(scancode: SDL_SCANCODE_SPACE.rawValue, pressed: true, time: 50.1))
        rig.input.handle(.key(scancode: SDL_SCANCODE_SPACE.rawValue, pressed: true, time: 50.15))  // no second press
        rig.input.handle(.key(scancode: SDL_SCANCODE_SPACE.rawValue, pressed: false, time: 50.2))
        let presses = rig.events.compactMap { if case let .key(press) = $0 { press } else { nil } }
        #expect(presses.count == 1)
        #expect(presses.first?.action == .playPause)
        #expect(presses.first?.time == 50.1)
    }

    @Test func aHeldSpeedKeyRepeatsOnTheLoopsTimersUntilTheWindowLosesTheKeyboard() throws {
        let rig = try Harness()
        rig.input.handle(.key(scancode: SDL_SCANCODE_UP.rawValue, pressed: true, time: 50))
        rig.clock.now = 50.75
        rig.loop.runOnce(timeout: 0)
        rig.clock.now = 50.75
        rig.loop.runOnce(timeout: 0)
        let repeats = rig.events.filter { if case let .key(press) = $0 { press.isRepeat } else { false } }
        #expect(repeats.count >= 1)
        rig.input.handle(.keyboardLost)
        let before = rig.events.count
        rig.clock.now = 60
        rig.loop.runOnce(timeout: 0)
        #expect(rig.events.count == before)
    }

    @Test func aShortClickInTheOuterWindowIsATapAtItsDownTime() throws {
        let rig = try Harness()
        rig.click(at: 51, held: 0.08)
        #expect(rig.taps == [51])
        #expect(rig.input.counters.taps == 1)
    }

    @Test func heldDraggedAndBouncedClicksAreRejectedAsTouchesAre() throws {
        let rig = try Harness()
        rig.click(at: 51, held: 0.5)
        rig.click(at: 52, held: 0.1, x: 100, dragTo: 300)
        rig.click(at: 53, held: 0.1)
        rig.click(at: 53.2, held: 0.05)
        #expect(rig.taps == [53])
        #expect(rig.input.counters.rejected == ["held_too_long": 1, "moved": 1, "debounced": 1])
    }

    @Test func clicksWhileTheOuterShowsNothingAreNotTaps() throws {
        let rig = try Harness()
        rig.input.outerTakesTaps = false
        rig.click(at: 51, held: 0.1)
        #expect(rig.taps.isEmpty)
        #expect(rig.input.counters.rejected == ["not_presented": 1])
    }

    @Test func theInnerWindowsMouseAndTouchAreTheOperatorsPointer() throws {
        let rig = try Harness()
        rig.input.handle(.pointer(.inner, x: 10, y: 20, button: nil, time: 51))
        rig.input.handle(.pointer(.inner, x: 10, y: 20, button: (3, true), time: 51.1))
        rig.input.handle(.touch(.inner, phase: .down, slot: 4, x: 30, y: 40, time: 51.2))
        #expect(rig.events == [
            .innerPointer(x: 10, y: 20, button: nil, time: 51),
            .innerPointer(x: 10, y: 20, button: PointerButton(code: UInt32(BTN_RIGHT), isPressed: true), time: 51.1),
            .innerTouch(phase: .down, slot: 4, x: 30, y: 40, time: 51.2),
        ])
    }
}
