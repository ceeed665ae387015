import Foundation

/// Times of day on the console, in the rig's local time (the C library's, from TZ as
/// Foundation's): made with localtime_r, since the console draws some of them every
/// frame while the text plays or a clip replays, and a DateFormatter made for each
/// cost ICU about 1.4 million instructions (4x a whole 1080p frame copy).
package enum LocalTimeText {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "14:05:09".
    package static func clock(_ date: Date) -> String {
        let parts = local(date)
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    /// "1 Dec 2026 08:15": unambiguous in every locale (the library's and clips' dates).
    package static func day(_ date: Date) -> String {
        let parts = local(date)
        let month = months[Int(min(max(parts.tm_mon, 0), 11))]
        return "\(parts.tm_mday) \(month) \(Int(parts.tm_year) + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min))"
    }

    private static func local(_ date: Date) -> tm {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        return parts
    }

    private static func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
