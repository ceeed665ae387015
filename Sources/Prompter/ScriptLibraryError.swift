import Durable
import Foundation

/// Everything the script library can refuse, with a sentence for the inner display.
public enum ScriptLibraryError: Error, Equatable, CustomStringConvertible {
    case notFound(id: String)
    case folderNotFound(String)
    case invalidName(String, reason: String)
    case nameTaken(String)
    case binary(id: String)
    case tooLarge(id: String, size: Int, limit: Int)
    case io(path: String, operation: String, reason: String)
    /// An imported document with no text yet (converting) or none at all.
    case notImported(id: String, reason: String)
    /// Imported documents are read-only: their text comes from the converter.
    case readOnlyImport(id: String)

    public var description: String {
        switch self {
        case .notFound(let id): return "Script \"\(id)\" no longer exists."
        case .folderNotFound(let name): return "Folder \"\(name)\" no longer exists."
        case .invalidName(let name, let reason): return "\"\(name)\" cannot be used as a name: \(reason)."
        case .nameTaken(let name): return "There is already a script or folder named \"\(name)\"."
        case .binary(let id): return "\"\(id)\" is a binary file, not text; it cannot be opened."
        case .tooLarge(let id, let size, let limit):
            return "\"\(id)\" is \(ByteCountText.format(size)); scripts over \(ByteCountText.format(limit)) are refused."
        case .io(let path, let operation, let reason): return "Could not \(operation) \(path): \(reason)."
        case .notImported(let id, let reason): return "\"\(id)\": \(reason)"
        case .readOnlyImport(let id):
            return "\"\(id)\" is an imported document and is read-only; edit the original and drop it in again."
        }
    }

    /// Wraps a Foundation/POSIX error with the path and what was being done.
    static func wrap(_ error: Error, path: URL, operation: String) -> ScriptLibraryError {
        if let own = error as? ScriptLibraryError { return own }
        if let atomic = error as? AtomicFileError {
            return .io(path: path.path, operation: operation, reason: atomic.reason)
        }
        let nsError = error as NSError
        let reason = (nsError.userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription
            ?? nsError.localizedDescription
        return .io(path: path.path, operation: operation, reason: reason)
    }
}
