import Testing
@testable import Kiosk
@testable import Stage

/// Recorded outer-touchscreen sequences on a 1920x1080 outer display
/// (diagonal 2202.9 px, so the travel limit is 44.06 px).
@Suite struct TapRecognizerTests {
    /// Parses a recording: one event per line, "time slot phase [x y]" with time in
    /// seconds, the way `rig input-probe` prints them.
    private func recording(_ text: String) -> [TouchSample] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 3, let time = Double(fields[0]), let slot = Int32(fields[1]) else { return nil }
            let phase: TouchSample.Phase = switch fields[2] {
            case "down": .down
            case "motion": .motion
            case "up": .up
            default: .cancel
            }
            let x = fields.count > 3 ? Double(fields[3]) ?? 0 : 0
            let y = fields.count > 4 ? Double(fields[4]) ?? 0 : 0
            return TouchSample(phase: phase, slot: slot, x: x, y: y, time: time)
        }
    }

    private func outcomes(_ text: String, presented: Bool = true) -> [TapRecognizer.Outcome] {
        var recognizer = TapRecognizer(displayWidth: 1920, displayHeight: 1080)
        recognizer.outerTakesTaps = presented
        return recording(text).compactMap { recognizer.handle($0) }
    }

    private func tap(_ time: Double, _ x: Double, _ y: Double) -> TapRecognizer.Outcome {
        .tap(.init(time: time, x: x, y: y))
    }

    @Test func quickTapCarriesTheDownTimestamp() {
        let result = outcomes("""
        100.000 0 down 960 540
        100.030 0 motion 962 541
        100.080 0 up
        """)
        #expect(result == [tap(100.0, 960, 540)])
    }

    @Test func tapAtTheDurationLimitCountsAndJustOverDoesNot() {
        #expect(outcomes("5.000 0 down 10 10\n5.300 0 up") == [tap(5.0, 10, 10)])
        let late = outcomes("5.000 0 down 10 10\n5.301 0 up")
        guard case .rejected(.heldTooLong(let duration))? = late.first else {
            Issue.record("expected heldTooLong, got \(late)")
            return
        }
        #expect(abs(duration - 0.301) < 1e-9)
    }

    @Test func longPressIsIgnored() {
        let result = outcomes("1.0 0 down 500 500\n1.2 0 motion 501 500\n2.5 0 up")
        #expect(result.count == 1)
        #expect(result.first.map { if case .rejected(.heldTooLong) = $0 { true } else { false } } == true)
    }

    @Test func travelJustUnderTheLimitIsATapAndJustOverIsNot() {
        // 44.0 px is under 2 % of the diagonal (44.06 px); 44.1 px is over.
        #expect(outcomes("1.0 0 down 100 100\n1.05 0 motion 144.0 100\n1.1 0 up") == [tap(1.0, 100, 100)])
        let over = outcomes("1.0 0 down 100 100\n1.05 0 motion 144.1 100\n1.1 0 up")
        guard case .rejected(.moved(let distance))? = over.first else {
            Issue.record("expected moved, got \(over)")
            return
        }
        #expect(abs(distance - 44.1) < 1e-9)
    }

    @Test func diagonalTravelIsMeasuredAsADistance() {
        // 32 px right and 32 px down is 45.3 px away: a drag, though each axis is small.
        let result = outcomes("1.0 0 down 100 100\n1.05 0 motion 132 132\n1.1 0 up")
        #expect(result.first.map { if case .rejected(.moved) = $0 { true } else { false } } == true)
    }

    @Test func slowSwipeIsReportedAsMovedNotHeld() {
        let result = outcomes("1.0 0 down 100 100\n1.3 0 motion 600 100\n1.9 0 up")
        #expect(result == [.rejected(.moved(distance: 500))])
    }

    @Test func swipeThatComesBackIsStillADrag() {
        let result = outcomes("""
        1.00 0 down 900 500
        1.04 0 motion 1000 500
        1.08 0 motion 905 500
        1.12 0 up
        """)
        #expect(result.first.map { if case .rejected(.moved) = $0 { true } else { false } } == true)
    }

    @Test func fastSwipeIsIgnored() {
        let result = outcomes("""
        3.000 0 down 200 540
        3.016 0 motion 400 540
        3.032 0 motion 800 540
        3.048 0 motion 1400 540
        3.060 0 up
        """)
        #expect(result.count == 1)
        #expect(result.first.map { if case .rejected(.moved) = $0 { true } else { false } } == true)
    }

    @Test func secondFingerSpoilsTheTap() {
        let result = outcomes("""
        1.00 0 down 500 500
        1.03 1 down 700 500
        1.06 1 up
        1.08 0 up
        """)
        #expect(result == [.rejected(.secondFinger)])
    }

    @Test func tapDuringADragByAnotherFingerIsIgnored() {
        let result = outcomes("""
        1.00 0 down 100 100
        1.10 0 motion 300 100
        1.20 1 down 900 600
        1.25 1 up
        1.30 0 motion 500 100
        1.60 0 up
        """)
        #expect(result == [.rejected(.secondFinger)])
    }

    @Test func palmIsIgnored() {
        let result = outcomes("""
        1.000 0 down 800 800
        1.004 1 down 830 810
        1.008 2 down 860 805
        1.010 3 down 845 840
        1.050 2 up
        1.052 3 up
        1.060 0 up
        1.061 1 up
        """)
        #expect(result == [.rejected(.palm)])
    }

    @Test func cancelledTouchesAreIgnored() {
        let result = outcomes("1.00 0 down 800 800\n1.05 0 cancel")
        #expect(result == [.rejected(.cancelled)])
    }

    @Test func doubleTapAcceptsOnlyTheFirst() {
        let result = outcomes("""
        10.00 0 down 960 540
        10.07 0 up
        10.20 0 down 960 540
        10.26 0 up
        """)
        #expect(result.count == 2)
        #expect(result.first == tap(10.0, 960, 540))
        guard case .rejected(.debounced(let gap))? = result.last else {
            Issue.record("expected debounced, got \(result)")
            return
        }
        #expect(abs(gap - 0.13) < 1e-9)
    }

    @Test func tapJustOutsideTheDebounceCounts() {
        let result = outcomes("""
        10.00 0 down 960 540
        10.07 0 up
        10.32 0 down 960 540
        10.38 0 up
        """)
        #expect(result == [tap(10.0, 960, 540), tap(10.32, 960, 540)])
    }

    @Test func rejectedTapDoesNotStartTheDebounce() {
        let result = outcomes("""
        10.00 0 down 960 540
        10.50 0 up
        10.55 0 down 960 540
        10.60 0 up
        """)
        #expect(result.last == tap(10.55, 960, 540))
    }

    @Test func tapWhileOuterContentIsNotPresentedIsIgnored() {
        #expect(outcomes("1.0 0 down 10 10\n1.1 0 up", presented: false) == [.rejected(.notPresented)])
    }

    @Test func contentDisappearingMidTapSpoilsIt() {
        var recognizer = TapRecognizer(displayWidth: 1920, displayHeight: 1080)
        #expect(recognizer.handle(TouchSample(phase: .down, slot: 0, x: 5, y: 5, time: 1.0)) == nil)
        recognizer.outerTakesTaps = false
        recognizer.outerTakesTaps = true
        #expect(recognizer.handle(TouchSample(phase: .up, slot: 0, x: 0, y: 0, time: 1.1)) == .rejected(.notPresented))
        #expect(recognizer.handle(TouchSample(phase: .down, slot: 0, x: 5, y: 5, time: 2.0)) == nil)
        #expect(recognizer.handle(TouchSample(phase: .up, slot: 0, x: 0, y: 0, time: 2.1)) == tap(2.0, 5, 5))
    }

    @Test func travelLimitFollowsTheDisplaySize() {
        var recognizer = TapRecognizer(displayWidth: 1920, displayHeight: 1080)
        recognizer.resize(displayWidth: 800, displayHeight: 600)  // diagonal 1000, limit 20 px
        _ = recognizer.handle(TouchSample(phase: .down, slot: 0, x: 100, y: 100, time: 1.0))
        _ = recognizer.handle(TouchSample(phase: .motion, slot: 0, x: 125, y: 100, time: 1.05))
        let outcome = recognizer.handle(TouchSample(phase: .up, slot: 0, x: 0, y: 0, time: 1.1))
        #expect(outcome == .rejected(.moved(distance: 25)))
    }

    @Test func strayUpOrMotionWithoutADownIsHarmless() {
        #expect(outcomes("1.0 3 motion 10 10\n1.1 3 up\n2.0 0 down 1 1\n2.1 0 up") == [tap(2.0, 1, 1)])
    }
}
