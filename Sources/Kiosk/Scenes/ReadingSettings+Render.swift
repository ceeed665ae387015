import Prompter
import Render

/// How the prompter's reading settings and rig.toml's values become drawing terms.
extension PresetColor {
    var color: Color {
        let (red, green, blue) = rgb
        return Color(red: red, green: green, blue: blue)
    }
}

extension ReadingSettings {
    /// The text-only transform (mirror, flip, rotation).
    var textTransform: TextTransform {
        TextTransform(mirror: mirror, flip: flip,
                      rotation: TextTransform.Rotation(degrees: rotation.degrees) ?? .none)
    }

    var textStyle: TextStyle {
        TextStyle(fontFamily: fontFamily.familyName, fontSize: Double(fontSize), lineSpacing: lineSpacing)
    }

    /// Reading settings as rig.toml sets them for this rig; unknown names fall back
    /// to the defaults (the config loader has already reported them).
    init(config prompter: RigConfig.Prompter) {
        self.init(fontFamily: FontFamily(rawValue: prompter.fontFamily) ?? .defaultFamily,
                  fontSize: prompter.fontSize, lineSpacing: prompter.lineSpacing,
                  margin: Double(prompter.margin),
                  textColor: PresetColor(rawValue: prompter.textColor) ?? .defaultText,
                  backgroundColor: PresetColor(rawValue: prompter.backgroundColor) ?? .defaultBackground,
                  mirror: prompter.mirror, flip: prompter.flip,
                  rotation: TextRotation(snapping: prompter.rotation), speed: prompter.speed)
    }
}

extension RigConfig.Display {
    /// The size to draw for: the configured mode, or the headless size when the
    /// mode is "preferred" (only a connected monitor knows its preferred mode).
    func drawingSize(headless: RigConfig.Displays) -> PixelSize {
        if case let .size(width, height, _) = mode { return PixelSize(width: width, height: height) }
        return PixelSize(width: headless.headlessWidth, height: headless.headlessHeight)
    }
}
