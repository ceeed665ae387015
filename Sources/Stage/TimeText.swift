import Foundation

/// Times as text: of day on the console, in the rig's local time (the C library's, from
/// TZ as Foundation's), and ISO 8601 in UTC for the status. Made with localtime_r and
/// gmtime_r, since the console draws some of them every frame while the text plays or a
/// clip replays and the status is asked for up to hundreds of times a second, and a
/// date formatter made for each cost ICU about 1.4 million instructions (4x a whole
/// 1080p frame copy).
package enum TimeText {
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

    /// "2026-12-03T05:57:58Z", as ISO8601DateFormatter writes it by default.
    package static func iso8601(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return "\(Int(parts.tm_year) + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    private static func local(_ date: Date) -> tm {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        return parts
    }

    private static func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
