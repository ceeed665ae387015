/// `[touch] device = "auto"`: the participant's touchscreen is the only touchscreen
/// present. With none there is no participant Stop (the game's dashboard says so);
/// with several the rig cannot know which is on the participant's display, so it
/// picks none and the banner names them for rig.toml.
struct AutoTouchChoice: Equatable {
    /// The sysname (event node) of the touchscreen chosen; nil with none or several.
    let chosen: String?
    /// The banner's line with several touchscreens; nil otherwise.
    let problem: String?

    init(touchscreens: [InputDeviceInfo]) {
        let names = touchscreens.sorted { $0.sysname < $1.sysname }
        if names.count == 1 {
            chosen = names[0].sysname
            problem = nil
        } else {
            chosen = nil
            problem = names.count < 2 ? nil
                : "input: [touch] device = \"auto\" found \(names.count) touchscreens ("
                + names.map { "\"\($0.name)\"" }.joined(separator: ", ")
                + "); set [touch] device to the one on the participant's display"
        }
    }

    /// `devices` with the roles this choice gives them.
    func apply(to devices: [InputDeviceInfo]) -> [InputDeviceInfo] {
        devices.map { device in
            var device = device
            if device.capabilities.contains(.touch) { device.role = device.sysname == chosen ? .outerTouchscreen : .inner }
            return device
        }
    }
}
