import CInput
import Testing
@testable import Kiosk
@testable import Stage

@Suite struct KeyBindingsTests {
    private func key(_ code: Int32) -> UInt32 { UInt32(code) }

    @Test func defaultsMatchTheOperatorTable() {
        let bindings = KeyBindings.defaults
        #expect(bindings.action(forKey: key(KEY_SPACE)) == .playPause)
        #expect(bindings.action(forKey: key(KEY_UP)) == .faster)
        #expect(bindings.action(forKey: key(KEY_DOWN)) == .slower)
        #expect(bindings.action(forKey: key(KEY_HOME)) == .stop)
        #expect(bindings.action(forKey: key(KEY_ESC)) == .library)
        #expect(bindings.action(forKey: key(KEY_PAGEDOWN)) == .faster)
        #expect(bindings.action(forKey: key(KEY_PAGEUP)) == .slower)
        #expect(bindings.action(forKey: key(KEY_B)) == .blank)
        #expect(bindings.action(forKey: key(KEY_DOT)) == .blank)
        #expect(bindings.action(forKey: key(KEY_EQUAL)) == .fontLarger)
        #expect(bindings.action(forKey: key(KEY_KPPLUS)) == .fontLarger)
        #expect(bindings.action(forKey: key(KEY_MINUS)) == .fontSmaller)
        #expect(bindings.action(forKey: key(KEY_M)) == .mirror)
        #expect(bindings.action(forKey: key(KEY_F)) == .flip)
        #expect(bindings.action(forKey: key(KEY_R)) == .rotate)
        #expect(bindings.action(forKey: key(KEY_X)) == nil)
        #expect(bindings.action(forKey: key(KEY_N)) == .nextMarker)
        #expect(bindings.action(forKey: key(KEY_P)) == .previousMarker)
        #expect(bindings.action(forKey: key(KEY_K)) == .setMarker)
        #expect(bindings.action(forKey: key(KEY_T)) == .toStart)
    }

    @Test func onlySpeedKeysRepeat() {
        let repeating = KeyAction.allCases.filter(\.repeatsWhileHeld)
        #expect(Set(repeating) == [.faster, .slower])
    }

    @Test func actionNamesAreTheRigTomlNames() {
        #expect(KeyAction(rawValue: "play_pause") == .playPause)
        #expect(KeyAction(rawValue: "font_smaller") == .fontSmaller)
        #expect(KeyAction(rawValue: "previous_marker") == .previousMarker)
        #expect(KeyAction(rawValue: "PlayPause") == nil)
    }

    @Test func keyNamesAcceptEverySpelling() {
        #expect(KeyNames.code(for: "Period") == key(KEY_DOT))
        #expect(KeyNames.code(for: ".") == key(KEY_DOT))
        #expect(KeyNames.code(for: "+") == key(KEY_EQUAL))
        #expect(KeyNames.code(for: "pagedown") == key(KEY_PAGEDOWN))
        #expect(KeyNames.code(for: "b") == key(KEY_B))
        #expect(KeyNames.code(for: "F5") == key(KEY_F5))
        #expect(KeyNames.code(for: "KP_Add") == key(KEY_KPPLUS))
        #expect(KeyNames.code(for: "7") == key(KEY_7))
        #expect(KeyNames.code(for: "Spacebar") == nil)
        #expect(KeyNames.name(for: key(KEY_DOT)) == "Period")
    }

    @Test func configuredActionReplacesItsDefaultsAndTakesKeysFromOthers() {
        let (bindings, problems) = KeyBindings.parse(bindings: [
            (action: "next_marker", keys: ["PageDown"], line: 40, column: 1),
            (action: "previous_marker", keys: ["PageUp"], line: 41, column: 1),
            (action: "play_pause", keys: ["Space", "PlayPause"], line: 42, column: 1),
        ])
        #expect(problems.isEmpty)
        #expect(bindings.action(forKey: key(KEY_PAGEDOWN)) == .nextMarker)
        #expect(bindings.action(forKey: key(KEY_PAGEUP)) == .previousMarker)
        #expect(bindings.keys(for: .faster) == [key(KEY_UP)])
        #expect(bindings.keys(for: .slower) == [key(KEY_DOWN)])
        #expect(bindings.action(forKey: key(KEY_PLAYPAUSE)) == .playPause)
        #expect(bindings.action(forKey: key(KEY_HOME)) == .stop)
    }

    @Test func emptyListUnbindsAnAction() {
        let (bindings, problems) = KeyBindings.parse(bindings: [
            (action: "rotate", keys: [], line: 3, column: 1),
        ])
        #expect(problems.isEmpty)
        #expect(bindings.action(forKey: key(KEY_R)) == nil)
    }

    @Test func unknownNamesAreReportedWithTheirPlaceAndTheRestApplies() {
        let (bindings, problems) = KeyBindings.parse(bindings: [
            (action: "fast_forward", keys: ["F"], line: 10, column: 1),
            (action: "faster", keys: ["Up", "Hyper_Q"], line: 11, column: 3),
        ])
        #expect(problems.count == 2)
        #expect(problems.first == KeyBindingProblem(line: 10, column: 1, kind: .unknownAction("fast_forward")))
        #expect(problems.last == KeyBindingProblem(line: 11, column: 3, kind: .unknownKey("Hyper_Q", action: .faster)))
        #expect(problems.first?.description.hasPrefix("10:1: unknown action \"fast_forward\"") == true)
        #expect(problems.last?.message.contains("Hyper_Q") == true)
        #expect(bindings.keys(for: .faster) == [key(KEY_UP)])
        #expect(bindings.action(forKey: key(KEY_F)) == .flip)
    }

    @Test func keyBoundToTwoActionsIsAProblem() {
        let (bindings, problems) = KeyBindings.parse(bindings: [
            (action: "blank", keys: ["B"], line: 5, column: 1),
            (action: "mirror", keys: ["b", "M"], line: 6, column: 1),
        ])
        #expect(problems == [KeyBindingProblem(line: 6, column: 1,
                                               kind: .keyBoundTwice("b", first: .blank, second: .mirror))])
        #expect(bindings.action(forKey: key(KEY_B)) == .blank)
        #expect(bindings.action(forKey: key(KEY_M)) == .mirror)
    }
}
