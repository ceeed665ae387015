import Foundation
import Media

/// What the caller of `RecordingService.start` says about a take: its kind (prompter
/// take, game attempt) and what goes into the JSON beside the file.
struct RecordingTake: Sendable, Equatable {
    enum Kind: String, Sendable { case prompter, game }
    var kind: Kind
    /// Written into the metadata JSON (script, position range, reading settings, ...).
    var annotations: [String: String] = [:]
}

/// How a take ended, on the loop, for the caller and the operator's banner.
struct RecordingOutcome: Sendable, Equatable {
    var generation: Int
    var kind: RecordingTake.Kind
    /// The finished file, or nil when the take was discarded.
    var result: RecordingResult?
    /// A user-facing line when the take ended by itself or failed; nil for a plain stop.
    var message: String?
    /// Whether pressing Record again is the fix (a discarded take).
    var retry: Bool
    /// The stream that stopped, when that ended the take.
    var stalled: RecordedStream? = nil
}

/// The file names of a take: sortable by time, unique within the folder.
enum RecordingName {
    static func make(kind: RecordingTake.Kind, date: Date, generation: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "\(kind.rawValue)-\(formatter.string(from: date))-\(generation)"
    }
}
