import Foundation
import Testing
@testable import Stage

/// The console's clock times, made without a DateFormatter per frame, read as one would.
@Suite struct PrompterTimersTests {
    @Test func clockTimeIsTheLocalTimeAsAFormatterWritesIt() {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        for seconds in [0.0, 1_790_000_000, 1_790_000_059.9, 1_800_003_661.2, 1_234_567_890] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(PrompterTimers.clockTime(date) == formatter.string(from: date), "\(seconds)")
        }
    }
}
