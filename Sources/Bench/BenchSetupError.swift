import Kiosk
import Stage

/// A case that could not be set up (no fonts): its reason becomes the report's
/// "unavailable" text.
struct BenchSetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
