/// `rig devices`: what this machine offers the kiosk, with the names rig.toml takes.
enum DevicesCommand: Command {
    static let name = "devices"
    static let summary = "List displays, cameras and input devices"
    static let help = """
        Usage: rig devices

          Lists the DRM cards and their connectors (name, connected, modes; * marks
          the monitor's preferred mode), the cameras and the input devices.
        """

    /// One section per kind of device. Displays are listed here; the camera and input
    /// sections are slots their owners fill (V4L2 and libinput branches).
    static let sections: [(title: String, lines: @Sendable () -> [String])] = [
        ("Displays", { DRMDeviceReport.lines() }),
        ("Cameras", { ["(not listed yet)"] }),          // SLOT: cameras (V4L2)
        ("Input devices", { ["(not listed yet)"] }),    // SLOT: input devices (libinput)
    ]

    static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32 {
        try arguments.finish()
        for (index, section) in sections.enumerated() {
            if index > 0 { Log.stdout("") }
            Log.stdout("\(section.title):")
            for line in section.lines() { Log.stdout("  " + line) }
        }
        return 0
    }
}
