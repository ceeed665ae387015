import Prompter

/// Why a pace (words per minute, "finish in") was refused.
package enum PaceError: Error, Equatable, CustomStringConvertible {
    case noLayout
    case badWordsPerMinute(Int)
    case badDuration
    case outOfRange(what: String, speed: Double)

    package var description: String {
        switch self {
        case .noLayout: "no script is laid out yet"
        case let .badWordsPerMinute(wpm): "words per minute must be above 0, found \(wpm)"
        case .badDuration: "the duration must be a time ahead, such as 4:30 or 90 (seconds)"
        case let .outOfRange(what, speed):
            "\(what) needs \(Int(speed.rounded())) px/s; the prompter scrolls at "
                + "\(ScrollSpeed.range.lowerBound)-\(ScrollSpeed.range.upperBound) px/s"
        }
    }
}
