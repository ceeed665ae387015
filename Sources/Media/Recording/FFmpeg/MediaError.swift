import CFFmpeg
import Glibc

/// Why recording, reading or exporting media failed, in words an operator can act on.
public enum MediaError: Error, Equatable, CustomStringConvertible {
    /// An FFmpeg call failed: what was being done, its error code and message.
    case ffmpeg(step: String, code: Int32, message: String)
    /// A file operation failed (path, step, the system's reason).
    case file(path: String, step: String, reason: String)
    /// The library lacks an encoder or decoder rig needs (Debian's libavcodec has them).
    case codecMissing(String)
    /// Input the caller handed over does not fit (wrong size, format or range).
    case badInput(String)
    /// The folder has less free space than the configured minimum.
    case notEnoughSpace(path: String, available: UInt64, minimum: UInt64)
    /// The file has no stream of the kind asked for.
    case noStream(path: String, kind: String)
    /// The recorder was already finished, cancelled or stopped.
    case notRecording

    public var description: String {
        switch self {
        case let .ffmpeg(step, code, message): return "FFmpeg could not \(step): \(message) (\(code))"
        case let .file(path, step, reason): return "Could not \(step) \(path): \(reason)"
        case let .codecMissing(name): return "The FFmpeg libraries have no \(name) codec"
        case let .badInput(what): return "Bad media input: \(what)"
        case let .notEnoughSpace(path, available, minimum):
            return "Not enough free space in \(path): \(Self.megabytes(available)) left, "
                + "\(Self.megabytes(minimum)) must stay free"
        case let .noStream(path, kind): return "\(path) has no \(kind) stream"
        case .notRecording: return "The recording has already ended"
        }
    }

    static func megabytes(_ bytes: UInt64) -> String {
        let tenths = (bytes * 10 + 524_288) / 1_048_576
        return "\(tenths / 10).\(tenths % 10) MB"
    }

    static func posix(_ path: String, _ step: String, _ code: Int32 = errno) -> MediaError {
        .file(path: path, step: step, reason: String(cString: strerror(code)))
    }

    /// The text FFmpeg gives for `code` (av_err2str, which does not import).
    static func text(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        rig_av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Turns a negative FFmpeg return value into a typed error; passes others through.
@discardableResult
func ffCheck(_ code: Int32, _ step: String) throws(MediaError) -> Int32 {
    guard code >= 0 else { throw MediaError.ffmpeg(step: step, code: code, message: MediaError.text(code)) }
    return code
}

/// AVERROR(EAGAIN) and AVERROR_EOF, which only the shim can spell.
enum FFCode {
    static let again = rig_averror_eagain()
    static let endOfFile = rig_averror_eof()
    static let invalidData = rig_averror_invaliddata()
    static let noPTS = rig_av_nopts_value()
}
