import Foundation
import Stage

/// A failed system call, with the call's name so the message says what failed.
enum SystemError: Error, CustomStringConvertible {
    case call(String, Int32)

    var description: String {
        switch self {
        case let .call(name, code): "\(name): \(String(cString: strerror(code)))"
        }
    }
}
