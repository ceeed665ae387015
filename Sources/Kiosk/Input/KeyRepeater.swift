import Stage

/// The kiosk's key repeat, for libinput's keyboards and the desktop windows alike:
/// neither repeats keys for the kiosk (libinput never does; the window backend drops the
/// desktop's repeats so a window behaves as the rig). The last pressed key repeats on
/// the loop's timers, with the press's text and modifiers as they were; after a stall
/// of the loop comes one catch-up repeat, never a burst.
final class KeyRepeater {
    private let loop: EventLoop
    private let deliver: (KeyPress) -> Void
    private var held: (code: UInt32, timer: EventLoop.TimerID)?
    /// Counts starts and stops, so a due repeat knows it is still the held key's.
    private var generation: UInt64 = 0
    /// Reads the device's queued events before a due repeat: a loop that stalled past
    /// the deadline (a heavy screen opened by the press itself) may not have read the
    /// release yet, and a tap is not a held key.
    var readPending: (() -> Void)?

    init(loop: EventLoop, deliver: @escaping (KeyPress) -> Void) {
        self.loop = loop
        self.deliver = deliver
    }

    deinit { stop() }

    /// `press` was just delivered: it repeats after `delay`, then every `interval`.
    func start(_ press: KeyPress, delay: Double, interval: Double) {
        schedule(press, at: press.time + delay, interval: interval)
    }

    /// A key went up: its repeat ends (another key's goes on).
    func released(code: UInt32) {
        if held?.code == code { stop() }
    }

    func stop() {
        if let held { loop.cancel(held.timer) }
        held = nil
        generation &+= 1
    }

    private func schedule(_ press: KeyPress, at deadline: Double, interval: Double) {
        stop()
        let current = generation
        let timer = loop.addTimer(at: deadline) { [weak self] in
            guard let self else { return }
            self.readPending?()
            guard self.generation == current else { return }
            var repeated = press
            repeated.time = deadline
            repeated.isRepeat = true
            self.deliver(repeated)
            self.schedule(press, at: max(deadline + interval, self.loop.clock()), interval: interval)
        }
        held = (press.code, timer)
    }
}
