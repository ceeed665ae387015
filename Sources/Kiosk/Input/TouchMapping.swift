import Stage

/// Maps a touchscreen's normalised coordinates (0…1 across the sensor) to pixels of the
/// display it sits on: first the rig.toml calibration matrix in sensor space (libinput's
/// convention: x' = a·x + b·y + c, y' = d·x + e·y + f), then the panel rotation, then
/// the display's logical size (the size after rotation, as the scenes see it).
struct TouchMapping: Sendable, Equatable {
    /// Clockwise degrees by which the logical picture is turned on the panel: with 90,
    /// the logical top-left corner is drawn at the panel's top-right.
    enum Rotation: Int, Sendable, CaseIterable { case none = 0, quarter = 90, half = 180, threeQuarters = 270 }

    var width: Double
    var height: Double
    var rotation: Rotation = .none
    var calibration: [Double] = TouchMapping.identity

    static let identity: [Double] = [1, 0, 0, 0, 1, 0]

    /// Checks a rig.toml `[touch] calibration` value: six finite numbers.
    static func validCalibration(_ values: [Double]) -> Bool {
        values.count == 6 && values.allSatisfy(\.isFinite)
    }

    /// Pixels on the display for a sensor position given as fractions of its range.
    func map(sensorX u: Double, sensorY v: Double) -> (x: Double, y: Double) {
        let m = Self.validCalibration(calibration) ? calibration : Self.identity
        let cu = m[0] * u + m[1] * v + m[2]
        let cv = m[3] * u + m[4] * v + m[5]
        // Undo the rotation the picture was drawn with (see `Rotation`).
        let (x, y): (Double, Double) = switch rotation {
        case .none: (cu, cv)
        case .quarter: (cv, 1 - cu)
        case .half: (1 - cu, 1 - cv)
        case .threeQuarters: (1 - cv, cu)
        }
        return (min(max(x, 0), 1) * width, min(max(y, 0), 1) * height)
    }
}
