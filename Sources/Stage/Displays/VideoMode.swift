/// The mode a display runs in, as the kiosk reports it: size and refresh in millihertz (the
/// kernel's modes are rarely whole hertz: 59.94, 74.97).
package struct VideoMode: Equatable, Sendable, CustomStringConvertible {
    package var width: Int
    package var height: Int
    package var refreshMillihertz: Int

    package init(width: Int, height: Int, refreshMillihertz: Int) {
        self.width = width
        self.height = height
        self.refreshMillihertz = refreshMillihertz
    }

    package var refresh: Double { Double(refreshMillihertz) / 1000 }
    /// Seconds between vblanks; a sane default when a mode reports no refresh.
    package var period: Double { refreshMillihertz > 0 ? 1000 / Double(refreshMillihertz) : 1.0 / 60 }

    package var description: String {
        let hz = refreshMillihertz % 1000 == 0 ? "\(refreshMillihertz / 1000)"
            : String(format: "%.2f", refresh)
        return "\(width)x\(height)@\(hz)"
    }
}


import Foundation
