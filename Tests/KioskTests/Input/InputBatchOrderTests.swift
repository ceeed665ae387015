import Testing
@testable import Kiosk

/// A batch read late holds each device's events together; they are routed as they
/// happened, each device in its own order, arrivals and removals where they were.
struct InputBatchOrderTests {
    typealias Event = InputBatchOrder.Event<String>

    @Test func twoDevicesQueuedOneAfterTheOtherAreInterleavedByTime() {
        // The keyboard's typed letters (10, 30) were queued before the touchscreen's
        // tap (20, 40): routed, the tap's down comes between the letters.
        let batch = [Event(device: "keyboard", time: 10), Event(device: "keyboard", time: 30),
                     Event(device: "touch", time: 20), Event(device: "touch", time: 40)]
        #expect(InputBatchOrder.routing(batch) == [0, 2, 1, 3])
    }

    @Test func aDevicesOwnOrderIsKeptWhenItsTimesGoBackwards() {
        let batch = [Event(device: "touch", time: 50), Event(device: "touch", time: 40),
                     Event(device: "keyboard", time: 45)]
        // The touchscreen's second event is never routed before its first.
        let order = InputBatchOrder.routing(batch)
        #expect(order.firstIndex(of: 0)! < order.firstIndex(of: 1)!)
        #expect(order == [2, 0, 1])
    }

    @Test func anEventWithoutATimeGoesWithItsDevicesEventBefore() {
        // A touch frame (no time) follows its down at 30, after the key at 20.
        let batch = [Event(device: "touch", time: 30), Event(device: "touch", time: nil),
                     Event(device: "keyboard", time: 20), Event(device: "keyboard", time: 35)]
        #expect(InputBatchOrder.routing(batch) == [2, 0, 1, 3])
    }

    @Test func aDeviceArrivingStaysBetweenTheEventsAroundIt() {
        // The new touchscreen's events (at 5) never come before its arrival, even though
        // the keyboard's event before the arrival is later (at 10).
        let batch = [Event(device: "keyboard", time: 10), Event(device: "touch", time: nil, changesDevices: true),
                     Event(device: "touch", time: 5), Event(device: "keyboard", time: 12)]
        #expect(InputBatchOrder.routing(batch) == [0, 1, 2, 3])
    }

    @Test func equalTimesKeepTheBatchsOrder() {
        let batch = [Event(device: "a", time: 7), Event(device: "b", time: 7), Event(device: "a", time: 7)]
        #expect(InputBatchOrder.routing(batch) == [0, 1, 2])
        #expect(InputBatchOrder.routing([Event]()).isEmpty)
    }
}
