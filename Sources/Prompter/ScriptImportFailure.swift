/// Why an imported document has no text, as the library lists it.
public enum ScriptImportFailure: Error, Equatable, Sendable, CustomStringConvertible {
    case missingTool(ScriptImportKind)
    case timedOut(tool: String, seconds: Double)
    case failed(tool: String, reason: String)
    /// The converted text would be longer than `max_script_mb` allows (`limit` bytes).
    case tooLarge(limit: Int)
    /// The converter needed more than its address-space limit: a document that expands
    /// to far more than any script (a zip bomb) ends here before writing anything.
    case outOfMemory(tool: String)
    /// The importer stopped (the kiosk is shutting down): nothing to list or cache.
    case stopped

    public var description: String {
        switch self {
        case .missingTool(let kind): return kind.missingToolMessage
        case .timedOut(let tool, let seconds):
            return "cannot read it: \(tool) was still converting after \(Int(seconds)) s and was stopped."
        case .failed(let tool, let reason): return "cannot read it: \(tool) failed: \(reason)"
        case .tooLarge(let limit):
            return "too large: the converted text is over \(Self.megabytes(limit)) (max_script_mb)."
        case .outOfMemory(let tool):
            return "too large: \(tool) needed more than \(Self.megabytes(ScriptConverter.addressSpaceBytes)) "
                + "of memory to convert it."
        case .stopped: return "not converted: the importer stopped."
        }
    }

    /// "16 MB" for a whole number of MiB (how max_script_mb is set), "1 GB", else "1.5 MB".
    private static func megabytes(_ bytes: Int) -> String {
        if bytes % (1 << 30) == 0 { return "\(bytes >> 30) GB" }
        return bytes % (1 << 20) == 0 ? "\(bytes >> 20) MB" : ByteCountText.format(bytes)
    }
}
