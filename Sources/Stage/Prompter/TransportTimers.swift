/// The prompter's moments that no event brings, on the stage's clock: a countdown's
/// end (the text starts moving), the script's end (a loop goes round on time,
/// "blank" blanks the talent's display), and the console's clock and timers ticking
/// once a second, playing or not.
final class TransportTimers {
    private let controller: PrompterController
    private let now: () -> Double
    private let schedule: (Double, @escaping () -> Void) -> Void
    /// A countdown ended: the transport's state changed at its own time.
    var countdownEnded: () -> Void = {}
    /// A second passed on the wall clock the console shows.
    var secondTicked: () -> Void = {}

    init(controller: PrompterController, now: @escaping () -> Double,
         schedule: @escaping (Double, @escaping () -> Void) -> Void) {
        self.controller = controller
        self.now = now
        self.schedule = schedule
    }

    /// Schedules the countdown's end and the script's end for the engine as it is now.
    /// Called on every state change: a timer of an older timeline finds nothing to do.
    func transportChanged() {
        let time = now()
        if let begin = controller.engine.countdownEnd, begin > time {
            schedule(begin) { [weak self] in self?.countdownEnded() }
        }
        guard let end = controller.engine.endTime(), end.isFinite else { return }
        schedule(max(time, end)) { [weak self] in
            guard let self else { return }
            let at = now()
            guard controller.engine.state == .playing, controller.engine.endTime().map({ $0 <= at }) ?? false
            else { return }
            controller.reachedEnd(at: at)
        }
    }

    /// Ticks on each whole second from now on.
    func startTicking() {
        schedule((now() + 1).rounded(.down)) { [weak self] in
            guard let self else { return }
            secondTicked()
            startTicking()
        }
    }
}
