import Prompter
import Render

/// How the prompter's reading settings and rig.toml's values become drawing terms.
extension PresetColor {
    package var color: Color {
        let (red, green, blue) = rgb
        return Color(red: red, green: green, blue: blue)
    }
}

extension ReadingSettings {
    /// The text-only transform (mirror, flip, rotation).
    package var textTransform: TextTransform {
        TextTransform(mirror: mirror, flip: flip,
                      rotation: TextTransform.Rotation(degrees: rotation.degrees) ?? .none)
    }

    package var textStyle: TextStyle {
        TextStyle(fontFamily: fontFamily.familyName, fontSize: Double(fontSize), lineSpacing: lineSpacing,
                  weight: weight.fontWeight, alignment: TextAlignment(rawValue: alignment.rawValue) ?? .left)
    }

    /// The colours of directions and highlights.
    package var textAccents: TextAccents {
        TextAccents(direction: directionColor.color, highlight: highlightColor.color)
    }
}

extension ReadingWeight {
    /// fontconfig's number for the weight.
    package var fontWeight: Int {
        switch self {
        case .regular: FontWeight.regular
        case .medium: FontWeight.medium
        case .semibold: FontWeight.semibold
        case .bold: FontWeight.bold
        }
    }
}
