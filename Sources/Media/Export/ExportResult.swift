import Glibc

/// What a derived export wrote.
public struct ExportResult: Sendable, Equatable {
    public var path: String
    public var videoFrames: Int
    /// Frames the cue badge was drawn on (cue export), 0 otherwise.
    public var badgedFrames: Int
    /// Packets copied unchanged from the original (audio for the cue export, video
    /// for the narrated one).
    public var copiedPackets: Int
    public var audioSamples: Int64
}

/// The cue's place on the recording's timeline: frames with start <= time < end.
public struct CueInterval: Sendable, Equatable, Codable {
    public var start: Double
    public var end: Double

    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }

    public func contains(_ time: Double) -> Bool { time >= start && time < end }
}

/// Writes a derived file under a hidden temporary name and renames it into place
/// only when complete: a failed export leaves nothing that looks finished.
struct ExportTarget {
    let path: String
    let temporaryPath: String

    init(_ path: String) throws(MediaError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw .badInput("export path '\(path)' names no file") }
        self.path = path
        temporaryPath = folder + "/." + name + ".partial"
    }

    /// A failed commit leaves no partial file behind: an export is made again from its clip.
    func commit() throws(MediaError) {
        do { try DurableFile.rename(temporaryPath, to: path) } catch {
            discard()
            throw error
        }
    }

    func discard() { unlink(temporaryPath) }
}
