import Stage

/// `rig devices`: what this machine offers the kiosk, with the names rig.toml takes.
enum DevicesCommand: Command {
    static let name = "devices"
    static let summary = "List displays, cameras, sound cards and input devices"
    static let help = """
        Usage: rig devices [--config PATH]

          Lists the DRM cards and their connectors (name, connected, modes; * marks
          the monitor's preferred mode), the cameras (path, /dev/v4l/by-id names,
          formats), the sound cards (their PCMs as rig.toml's [audio] names them)
          and the input devices (event node, name, capabilities, and which
          display each belongs to under rig.toml's [touch] device), and the hand
          controllers (shuttles, gamepads and MIDI ports: kind and speed axis).

        Options:
        \(ConfigOptions.help)
        """

    static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32 {
        let options = try ConfigOptions(&arguments)
        try arguments.finish()
        let touch = OuterTouchSelector(configValue: options.load().config.touch.device)
        let sections: [(title: String, lines: [String])] = [
            ("Displays", DRMDeviceReport.lines()),
            ("Cameras", cameraLines()),
            ("Sound cards", SoundCardList.describe(SoundCardList.cards()) + microphoneLines(options.load().config.audio)),
            ("Input devices", inputLines(outerTouch: touch)),
            ("Hand controllers", ControllerDevices.describe(config: options.load().config.controllers)
                + MIDIControllers.describe(config: options.load().config.controllers.midi)),
        ]
        for (index, section) in sections.enumerated() {
            if index > 0 { Log.stdout("") }
            Log.stdout("\(section.title):")
            for line in section.lines { Log.stdout("  " + line) }
        }
        return 0
    }

    private static func cameraLines() -> [String] {
        let cameras = CameraList.cameras()
        return cameras.isEmpty ? ["no cameras in /dev (no video4linux capture device)"] : CameraList.describe(cameras)
    }

    /// What `[audio] input = "auto"` picks on this machine now.
    private static func microphoneLines(_ audio: RigConfig.Audio) -> [String] {
        guard audio.input == AutoMicrophone.keyword else { return [] }
        let picked = AutoMicrophone.resolve(input: audio.input, output: audio.output)
        return ["[audio] input = \"auto\" picks " + (picked.isEmpty ? "nothing: no capture device" : picked)]
    }

    private static func inputLines(outerTouch: OuterTouchSelector?) -> [String] {
        do {
            let devices = try InputDevices.list(outerTouch: outerTouch)
            guard !devices.isEmpty else { return ["no input devices on seat0 (or no permission to open them)"] }
            var lines = devices.map(\.description)
            if outerTouch == .auto {
                let choice = AutoTouchChoice(touchscreens: devices.filter { $0.capabilities.contains(.touch) })
                lines.append(choice.problem.map { "[touch] device = \"auto\" picks none: \($0)" }
                    ?? devices.first { $0.role == .outerTouchscreen }.map { "[touch] device = \"auto\" picks \"\($0.name)\"" }
                    ?? "[touch] device = \"auto\" picks none: no touchscreen (the participant has no Stop)")
            }
            return lines
        } catch {
            return ["cannot list input devices: \(error)"]
        }
    }
}
