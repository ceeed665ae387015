import CFFmpeg

/// FFmpeg's log level is process-wide state; this is its one owner. By default the
/// libraries print libx264's banner and per-file statistics at info level to stderr,
/// which would land in the journal for every take: only errors are printed.
enum FFmpegLog {
    static let configured: Void = { av_log_set_level(AV_LOG_ERROR) }()
}
