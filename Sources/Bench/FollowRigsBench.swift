import Foundation
import Kiosk

/// A lead rig's outer frames while follower rigs follow it (issue 41): the headless lead
/// kiosk plays alone, then with 8 follower links on loopback (each keeps the event
/// stream, checks the clock each second, fetches the script). Its frames are on time
/// when the time between shown frames stays on the vblank grid and no vblank is missed.
enum FollowRigsBench {
    static let followerCounts = [0, 8]

    static func measure(text: String, frames: Int) throws -> [FollowRigsProbe.Outcome] {
        try followerCounts.map { try FollowRigsProbe.run(text: text, followers: $0, frames: max(frames, 60)) }
    }

    static func lines(_ outcomes: [FollowRigsProbe.Outcome]) -> [String] {
        ["follow-rigs: a lead's outer frames (1920x1080, 90 px/s) alone and with follower rigs",
         "followers  flips  missed vblanks  interval median  p99       max       states/s per follower"]
            + outcomes.map { row in
                String(format: "%9d  %5d  %14d  %12.2f ms  %6.2f ms  %6.2f ms  %.1f", row.followers, row.flips,
                       row.missedVblanks, row.intervalMedian, row.intervalP99, row.intervalMax, row.statesPerSecond)
            }
    }
}
