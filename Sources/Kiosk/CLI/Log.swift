import Foundation
import Stage

/// Plain output for the command-line tools. The kiosk's journal logging lives with
/// the kiosk; these are for people at a terminal.
package enum Log {
    package static func stderr(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    package static func stdout(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
