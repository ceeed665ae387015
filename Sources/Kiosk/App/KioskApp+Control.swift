import Foundation
import Stage

/// The control socket's requests and the input side's events, handed to the stage.
/// The kiosk answers what concerns itself: the status report's device facts and the
/// hang trigger that stops its loop dead.
extension KioskApp {
    func handle(_ request: ControlRequest) -> ControlReply {
        switch request {
        case .status:
            return ControlReply(body: status(at: loop.clock()))
        case .hang:
            guard ProcessInfo.processInfo.environment["RIG_TEST_HANG_TRIGGER"] == "1" else {
                return .failure("hang is a test aid; start the kiosk with RIG_TEST_HANG_TRIGGER=1 to allow it")
            }
            KioskLog.warning("hanging the event loop on request (RIG_TEST_HANG_TRIGGER)")
            while true { pause() }
        case let .speak(text): return speak(text)
        default:
            return stage.handle(request)
        }
    }

    func handle(_ event: InputEvent) {
        switch event {
        case let .outerTap(time): stage.handle(.outerTap(time: time))
        case let .key(press): stage.handle(.key(press))
        case let .innerPointer(x, y, button, time): stage.handle(.innerPointer(x: x, y: y, button: button, time: time))
        case let .innerTouch(phase, _, x, y, time): stage.handle(.innerTouch(phase: phase, x: x, y: y, time: time))
        case let .deviceAdded(info):
            KioskLog.info("input device added: \(info.name) (\(info.role.rawValue))")
        case let .deviceRemoved(info):
            KioskLog.info("input device removed: \(info.name)")
        }
    }
}
