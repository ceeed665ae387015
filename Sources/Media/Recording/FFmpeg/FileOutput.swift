import CFFmpeg
import Glibc

/// Owns the file descriptor and the AVIOContext the muxer writes through. Writing to
/// our own descriptor lets the recorder fsync once per fragment (a power cut loses at
/// most the last fragment) and see ENOSPC as such, and creates the file 0600 itself
/// (avio_open would create it 0666 less the umask).
final class FileOutput {
    let path: String
    private let fd: Int32
    private(set) var ioContext: UnsafeMutablePointer<AVIOContext>?
    /// Bytes handed to the kernel so far.
    private(set) var bytesWritten: UInt64 = 0
    /// The errno of the first failed write, kept for the message.
    private(set) var writeErrno: Int32 = 0

    init(creating path: String) throws(MediaError) {
        // Recordings and exports are of people: 0600 from creation, before the first
        // byte (the header) is written, whatever the umask or an older file's mode.
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .posix(path, "create") }
        guard fchmod(fd, 0o600) == 0 else {
            let code = errno
            close(fd)
            throw .posix(path, "fchmod", code)
        }
        self.path = path
        self.fd = fd
        let size = 65_536
        // From here every stored property is set, so a throw runs deinit, which closes
        // the descriptor; closing it here as well would be a double close.
        guard let buffer = av_malloc(size) else {
            throw .ffmpeg(step: "allocate an output buffer", code: 0, message: "out of memory")
        }
        let write: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, data, size in
            guard let opaque, let data else { return rig_averror(EINVAL) }
            return Unmanaged<FileOutput>.fromOpaque(opaque).takeUnretainedValue().write(data, Int(size))
        }
        ioContext = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(size), 1,
                                       Unmanaged.passUnretained(self).toOpaque(), nil, write, nil)
        if ioContext == nil {
            var doomed: UnsafeMutableRawPointer? = buffer
            av_freep(&doomed)
            throw .ffmpeg(step: "allocate an output context", code: 0, message: "out of memory")
        }
    }

    deinit {
        if let ioContext {
            var buffer: UnsafeMutableRawPointer? = UnsafeMutableRawPointer(ioContext.pointee.buffer)
            av_freep(&buffer)
            var context: UnsafeMutablePointer<AVIOContext>? = ioContext
            avio_context_free(&context)
        }
        close(fd)
    }

    private func write(_ data: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int32 {
        var done = 0
        while done < count {
            let n = Glibc.write(fd, data + done, count - done)
            if n < 0 {
                if errno == EINTR { continue }
                if writeErrno == 0 { writeErrno = errno }
                return rig_averror(errno)
            }
            done += n
        }
        bytesWritten += UInt64(count)
        return Int32(count)
    }

    /// Pushes FFmpeg's buffer to the kernel and the kernel's cache to the disk.
    func sync() throws(MediaError) {
        if let ioContext { avio_flush(ioContext) }
        if writeErrno != 0 { throw .posix(path, "write", writeErrno) }
        guard fsync(fd) == 0 else { throw .posix(path, "fsync") }
    }
}
