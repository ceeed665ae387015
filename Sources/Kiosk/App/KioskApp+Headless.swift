import Foundation
import Stage

/// `rig run --backend headless --snapshot-dir`: the kiosk until both displays have
/// shown a frame, then what they show as PPM files.
extension KioskApp {
    func snapshot(to directory: String, unplugging unplugged: DisplayRole? = nil) throws -> Int32 {
        start()
        if let unplugged { displaysBackend.simulateUnplug(unplugged) }
        try DisplaySnapshot.write(displaysBackend, loop: loop, to: directory, settle: 0.5)
        shutdown()
        return 0
    }
}
