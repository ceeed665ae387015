import Prompter

/// Who steers the speed when hand controllers are plugged in (issue 40). While a
/// controller is off its rest position it owns the speed: the engine drives at what its
/// map asks for (reverse included), and the keys, console and remote see that speed
/// but cannot change it. Back at rest the text pauses and the speed is free again. A
/// controller unplugged while it steered pauses the text and says so on the banner:
/// the talent is never left scrolling with nobody steering.
package final class HandControllers {
    /// What the wheel does (`[controllers.wheel] action`).
    package enum WheelAction: String, Sendable {
        case speed, scroll, off
    }

    package struct Settings: Sendable, Equatable {
        package var wheel: WheelAction = .speed
        package var wheelLines = 1
        package var jogLines = 1
        package init(wheel: WheelAction = .speed, wheelLines: Int = 1, jogLines: Int = 1) {
            self.wheel = wheel
            self.wheelLines = wheelLines
            self.jogLines = jogLines
        }
    }

    package static let problemSource = ProblemSource.input.detail("controllers")

    package var settings = Settings()
    private let controller: PrompterController
    private let problems: ProblemBoard
    /// The outer layout's line height in px (0 before there is a layout).
    var lineHeight: () -> Double = { 0 }
    private(set) var readings: [String: ControllerReading] = [:]
    /// The controller that owns the speed now, if any.
    package private(set) var steering: String?
    /// From a controller's event to the first outer flip drawn for after it (the engine
    /// moving at its new speed): `latency.controller_to_flip`.
    package private(set) var latency = TapLatencyHistogram()
    private var pendingChange: (event: Double, handled: Double)?
    /// Trying the maps out on the console's Settings: readings move, nothing steers.
    package private(set) var testing = false
    /// A reading changed (the console's Settings show them).
    var onChange: () -> Void = {}

    init(controller: PrompterController, problems: ProblemBoard) {
        self.controller = controller
        self.problems = problems
    }

    /// Takes a controller's event. With `steers` false (the game has the displays) the
    /// readings, arrivals and removals are still kept, so the status and Settings stay
    /// true, but nothing moves the text.
    package func handle(_ event: ControllerEvent, handledAt now: Double, steers: Bool = true) {
        switch event {
        case let .added(reading):
            readings[reading.id] = reading
            onChange()
            KioskLog.info("controller added: \(reading.name) (\(reading.kind.rawValue), \(reading.axis))")
        case let .moved(reading, time):
            let before = readings[reading.id]?.speed ?? 0
            readings[reading.id] = reading
            onChange()
            guard steers, !testing, reading.speed != before || steering == nil && reading.speed != 0 else { return }
            steer(reading, at: time, handled: now)
        case let .jogged(id, detents, time):
            guard steers, steering == nil || steering == id, controller.engine.state(at: time) != .playing else { return }
            nudge(lines: detents * settings.jogLines, at: time)
        case let .wheel(steps, time):
            guard steers else { return }
            wheel(steps: steps, at: time)
        case let .removed(id, time):
            guard let gone = readings.removeValue(forKey: id) else { return }
            KioskLog.info("controller removed: \(gone.name)")
            onChange()
            guard steering == id else { return }
            letGo(at: time)
            problems.set(["\(gone.name) was unplugged while it steered: the text is paused"], for: Self.problemSource)
        }
    }

    /// Turns trying the maps out on or off. On, a controller steering lets go (the text
    /// pauses, as at rest); off, a controller already off rest steers at once.
    package func setTesting(_ on: Bool, at time: Double) {
        guard on != testing else { return }
        testing = on
        KioskLog.info(on ? "controllers: trying the maps, the text stays still" : "controllers: steering again")
        if on, steering != nil {
            letGo(at: time)
        } else if !on, let moved = readings.values.sorted(by: { $0.id < $1.id }).first(where: { $0.speed != 0 }) {
            steer(moved, at: time, handled: time)
        }
        onChange()
    }

    /// What the console's Settings show.
    package var shown: ControllersShown {
        ControllersShown(controllers: readings.values.sorted { $0.id < $1.id }, steering: steering, testing: testing)
    }

    private func steer(_ reading: ControllerReading, at time: Double, handled now: Double) {
        if reading.speed == 0 {
            // Only the one steering pauses by coming back to rest.
            guard steering == reading.id else { return }
            letGo(at: time)
        } else {
            // Off rest, the latest to move takes the speed over.
            steering = reading.id
            problems.set([], for: Self.problemSource)
            controller.speedHeldBy = reading.name
            controller.drive(rate: reading.speed, at: time)
        }
        pendingChange = (time, now)
    }

    /// Nobody steers: the speed is free again and the text pauses (through the ramp).
    private func letGo(at time: Double) {
        steering = nil
        controller.speedHeldBy = nil
        controller.drive(rate: 0, at: time)
    }

    /// Moves the text by whole lines of the outer layout, through the engine's glide.
    private func nudge(lines: Int, at time: Double) {
        let height = lineHeight()
        guard lines != 0, height > 0, controller.script != nil else { return }
        let from = controller.engine.positionIgnoringGlide(at: time)
        KioskLog.info("controller: \(lines) lines of \(height) px from \(from)")
        controller.jump(toOffset: from + Double(lines) * height, at: time)
    }

    private func wheel(steps: Int, at time: Double) {
        guard steps != 0, settings.wheel != .off, steering == nil else { return }
        if settings.wheel == .scroll, controller.engine.state(at: time) != .playing {
            return nudge(lines: steps * settings.wheelLines, at: time)
        }
        for _ in 0..<abs(steps) {
            if steps > 0 { controller.faster(at: time) } else { controller.slower(at: time) }
        }
    }

    /// An outer frame reached the glass, drawn for `drawnFor`.
    func outerFlipped(at flipTime: Double, drawnFor: Double) {
        guard let pending = pendingChange, drawnFor >= pending.handled else { return }
        pendingChange = nil
        latency.record(tapTime: pending.event, flipTime: flipTime)
    }

    /// `status.input.controllers`.
    package var status: JSONValue {
        .array(readings.values.sorted { $0.id < $1.id }.map { reading in
            [
                "id": .string(reading.id), "name": .string(reading.name), "kind": .string(reading.kind.rawValue),
                "axis": .string(reading.axis), "map": .string(reading.map), "raw": .number(reading.raw),
                "travel": .number((reading.travel * 1000).rounded() / 1000),
                "speed": .number((reading.speed * 10).rounded() / 10), "steering": .bool(steering == reading.id),
            ]
        })
    }
}
