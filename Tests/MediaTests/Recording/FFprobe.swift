import Foundation
import Testing

/// The real FFmpeg command-line tools, as an independent reader of what rig writes.
enum FFprobe {
    struct Stream { var codecType: String; var codecName: String; var duration: Double? }

    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe") }

    /// Fails the test when ffprobe is missing: scripts/install-deps installs it, so its
    /// absence is a broken test machine, not a check to skip (a test that returned here
    /// would count as passed without ffprobe having read anything).
    static func require(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(available, "/usr/bin/ffprobe is missing: run scripts/install-deps (Debian package ffmpeg)",
                     sourceLocation: sourceLocation)
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = ["-v", "error"] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    static func streams(_ path: String) throws -> [Stream] {
        let result = try run(["-show_entries", "stream=codec_type,codec_name,duration", "-of", "json", path])
        let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let streams = json?["streams"] as? [[String: Any]] ?? []
        return streams.map {
            Stream(codecType: $0["codec_type"] as? String ?? "", codecName: $0["codec_name"] as? String ?? "",
                   duration: ($0["duration"] as? String).flatMap(Double.init))
        }
    }

    /// Presentation times of every decoded video frame, as ffprobe decodes them.
    static func videoFrameTimes(_ path: String) throws -> [Double] {
        let result = try run(["-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time",
                              "-of", "compact", path])
        // "frame|best_effort_timestamp_time=0.004000|side_data|..." (side data on some frames).
        let key = "best_effort_timestamp_time="
        return result.output.split(separator: "\n").compactMap { line -> Double? in
            guard line.hasPrefix("frame|"), let field = line.split(separator: "|").first(where: { $0.hasPrefix(key) }) else { return nil }
            return Double(field.dropFirst(key.count))
        }
    }

    static func formatDuration(_ path: String) throws -> Double? {
        let result = try run(["-show_entries", "format=duration", "-of", "csv=p=0", path])
        return Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
