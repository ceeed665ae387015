/// The order in which one libinput batch is routed.
///
/// libinput reads its devices one after another and queues each device's events
/// together, so a batch read after the loop lagged (a slow frame, a busy host) holds
/// all of one device's events and then all of another's: the host's typed name and
/// the tap on OK that followed it would arrive tap first. The devices' queues are
/// merged by their kernel timestamps, so the events arrive as the person made them.
/// Each device keeps its own order (libinput warns that one device's timestamps may
/// go backwards), and a device's arrival or removal stays where it is, between the
/// runs merged around it, so no device's event comes before the device itself.
enum InputBatchOrder {
    struct Event<Device: Hashable> {
        var device: Device
        /// The kernel's time in µs; nil for an event without one (a touch frame),
        /// which goes with the device's event before it.
        var time: UInt64?
        /// A device arrived or went away (or the event names no device).
        var changesDevices = false
    }

    /// Indices into `events` in routing order.
    static func routing<Device: Hashable>(_ events: [Event<Device>]) -> [Int] {
        var order: [Int] = []
        order.reserveCapacity(events.count)
        var start = 0
        for (index, event) in events.enumerated() where event.changesDevices {
            order += merged(events, start..<index)
            order.append(index)
            start = index + 1
        }
        order += merged(events, start..<events.count)
        return order
    }

    /// The run's events, each device's in its own order, interleaved by time (equal
    /// times in the batch's order).
    private static func merged<Device: Hashable>(_ events: [Event<Device>], _ run: Range<Int>) -> [Int] {
        var queues: [[(time: UInt64, index: Int)]] = []
        var queueOfDevice: [Device: Int] = [:]
        for index in run {
            let device = events[index].device
            let queue: Int
            if let known = queueOfDevice[device] {
                queue = known
            } else {
                queue = queues.count
                queueOfDevice[device] = queue
                queues.append([])
            }
            let time = events[index].time ?? queues[queue].last?.time ?? 0
            queues[queue].append((time, index))
        }
        var heads = [Int](repeating: 0, count: queues.count)
        var order: [Int] = []
        order.reserveCapacity(run.count)
        while order.count < run.count {
            var next: (time: UInt64, index: Int, queue: Int)?
            for queue in queues.indices where heads[queue] < queues[queue].count {
                let head = queues[queue][heads[queue]]
                if next.map({ (head.time, head.index) < ($0.time, $0.index) }) ?? true {
                    next = (head.time, head.index, queue)
                }
            }
            guard let next else { break }
            order.append(next.index)
            heads[next.queue] += 1
        }
        return order
    }
}
