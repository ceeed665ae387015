import Foundation
import Prompter
import Stage
import Testing
@testable import Kiosk

/// The remote's live state is pushed by the stage, not polled: a quiet rig reads no
/// status, a change is sent in the loop's turn it was said, and the position is
/// followed ten times a second only while the text moves.
@Suite struct LivePublisherTests {
    /// A status report as the stage gives it, with the fields a live state reads.
    final class FakeStatus {
        var state = "stopped"
        var offset = 0.0
        var speed = 60
        var json: JSONValue {
            ["mode": "prompter", "prompter": ["state": .string(state), "offset": .number(offset), "speed": .int(speed)]]
        }
    }

    private func events(_ client: EventStreamClient) -> [JSONValue] {
        var buffer = [CChar](repeating: 0, count: 1 << 16)
        var text = Data()
        while true {
            let count = client.read(into: &buffer, max: buffer.count)
            guard count > 0 else { break }
            text.append(contentsOf: buffer[0..<count].map { UInt8(bitPattern: $0) })
        }
        return String(decoding: text, as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("data: ") }
            .compactMap { JSONValue.parse(Data($0.dropFirst(6).utf8)) }
    }

    @Test func aQuietRigIsNotPolledAndAChangeGoesOutAtOnce() throws {
        let clock = ManualClock(0)
        let loop = ManualLoop(clock: clock, loop: try EventLoop(clock: { clock.now() }))
        let status = FakeStatus()
        let publisher = LivePublisher(loop: loop.loop, status: { status.json })
        let client = publisher.subscribe()
        loop.advance(by: 1)
        #expect(events(client).first?["state"]?.stringValue == "stopped")
        let looksAfterSubscribing = publisher.looks
        // A minute with nothing changing: no look at all (polling looked 20 times a second).
        loop.advance(by: 60)
        #expect(publisher.looks == looksAfterSubscribing, "looked \(publisher.looks - looksAfterSubscribing) times")
        _ = events(client)
        // The stage says its speed changed: the event is out within the loop's turn.
        status.speed = 90
        publisher.changed()
        loop.advance(by: 0)
        #expect(events(client).map { $0["speed"]?.numberValue } == [90])
    }

    @Test func thePositionIsFollowedOnlyWhileTheTextMoves() throws {
        let clock = ManualClock(0)
        let loop = ManualLoop(clock: clock, loop: try EventLoop(clock: { clock.now() }))
        let status = FakeStatus()
        let publisher = LivePublisher(loop: loop.loop, status: { status.json })
        let client = publisher.subscribe()
        loop.advance(by: 2)
        _ = events(client)
        status.state = "playing"
        publisher.changed()
        // One second of playing at 60 px/s, the status moving with the clock.
        var sent: [JSONValue] = []
        for step in 1...100 {
            status.offset = Double(step) * 0.6
            loop.advance(by: 0.01)
            sent += events(client)
        }
        let positions = sent.compactMap { $0["offset"]?.numberValue }
        #expect((9...12).contains(positions.count), "\(positions.count) positions in a second: \(positions)")
        // A change while the position is followed goes out in its own turn of the loop,
        // not at the position's next look.
        loop.advance(by: 0.02)
        _ = events(client)
        status.speed = 120
        publisher.changed()
        loop.advance(by: 0)
        #expect(events(client).map { $0["speed"]?.numberValue } == [120])
        // Stopped: one event says so, then no more looks.
        status.state = "stopped"
        publisher.changed()
        loop.advance(by: 2)
        #expect(events(client).last?["state"]?.stringValue == "stopped")
        let looks = publisher.looks
        loop.advance(by: 10)
        #expect(publisher.looks == looks)
    }
}
