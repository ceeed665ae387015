import Foundation

/// One of the two streams of a recording.
public enum MediaStream: String, Codable, CaseIterable, Sendable {
    case audio
    case video
}
