import Foundation
import Testing
@testable import Stage

/// The console's times of day, made without a DateFormatter per frame, read as a
/// formatter would write them in the same time zone.
@Suite struct TimeTextTests {
    static let dates = [0.0, 1_790_000_000, 1_790_000_059.9, 1_800_003_661.2, 1_234_567_890, 1_764_547_200]
        .map { Date(timeIntervalSince1970: $0) }

    @Test func clockIsTheLocalTimeAsAFormatterWritesIt() {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        for date in Self.dates { #expect(TimeText.clock(date) == formatter.string(from: date), "\(date)") }
    }

    @Test func dayIsTheLibrarysDateAsAFormatterWritesIt() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.dateFormat = "d MMM yyyy HH:mm"
        for date in Self.dates { #expect(TimeText.day(date) == formatter.string(from: date), "\(date)") }
    }

    @Test func iso8601IsWhatTheFoundationFormatterWrites() {
        let formatter = ISO8601DateFormatter()
        for date in Self.dates { #expect(TimeText.iso8601(date) == formatter.string(from: date), "\(date)") }
    }
}
