import Foundation

/// How a hand controller's position becomes a scroll speed, as broadcast prompter
/// controllers map it: a neutral band around the rest position where the text stands
/// still, then forward (or reverse) speeds growing with the travel, either along a curve
/// or in fixed steps per position (a shuttle ring's detents).
///
/// Raw values are the device's own units (a ring's -7…7, a stick's -32768…32767, a
/// pedal's 0…127). `forwardEnd` is the raw value at full forward speed and
/// `reverseEnd` at full reverse, so a stick whose "up" reads negative is mapped by
/// giving the ends the other way round; `rest` is where the control sits untouched (a
/// spring-centred ring's middle, a pedal's heel end).
public struct SpeedMap: Sendable, Equatable {
    public var reverseEnd: Double
    public var forwardEnd: Double
    public var rest: Double
    /// The dead band: this share of the travel on each side of `rest` asks for no speed.
    public var neutral: Double
    /// px/s at full forward travel, and at full reverse (0: no reverse).
    public var forwardMax: Int
    public var reverseMax: Int
    /// The exponent of the travel past the band (1: linear, 2: fine control near rest).
    public var curve: Double
    /// Speeds per position outward from the band, used instead of the curve when set:
    /// the travel past the band is cut into `steps.count` equal parts.
    public var steps: [Int]

    public init(reverseEnd: Double, forwardEnd: Double, rest: Double, neutral: Double,
                forwardMax: Int, reverseMax: Int, curve: Double = 1, steps: [Int] = []) {
        self.reverseEnd = reverseEnd
        self.forwardEnd = forwardEnd
        self.rest = rest
        self.neutral = min(max(neutral, 0), 0.95)
        self.forwardMax = forwardMax
        self.reverseMax = reverseMax
        self.curve = curve > 0 ? curve : 1
        self.steps = steps
    }

    /// The map in a line, for the operator: the steps or the band, curve and maxima.
    public var summary: String {
        let reverse = reverseMax > 0 ? ", reverse ≤ \(reverseMax) px/s" : ", no reverse"
        if !steps.isEmpty {
            return "steps " + steps.map(String.init).joined(separator: " ") + " px/s" + reverse
        }
        return "band \(Int((neutral * 100).rounded())) %, curve \(String(format: "%.1f", curve)), ≤ \(forwardMax) px/s" + reverse
    }

    /// Where the control is: -1 (full reverse) … 0 (in the band) … 1 (full forward),
    /// the band already taken out, so the first position past it reads just above 0.
    public func travel(at raw: Double) -> Double {
        let towardsForward = forwardEnd - rest, towardsReverse = reverseEnd - rest
        let offset = raw - rest
        var signed = 0.0
        if towardsForward != 0, offset * towardsForward > 0 {
            signed = min(offset / towardsForward, 1)
        } else if towardsReverse != 0, offset * towardsReverse > 0 {
            signed = -min(offset / towardsReverse, 1)
        }
        let magnitude = abs(signed)
        guard magnitude > neutral else { return 0 }
        let past = (magnitude - neutral) / (1 - neutral)
        return signed < 0 ? -past : past
    }

    /// The signed speed asked for at `raw`, in px/s: 0 in the band, then from the
    /// engine's slowest speed up to the maximum of that direction (or the step's speed).
    public func speed(at raw: Double) -> Double {
        let travel = travel(at: raw)
        guard travel != 0 else { return 0 }
        let limit = Double(travel > 0 ? forwardMax : reverseMax)
        guard limit > 0 else { return 0 }
        let slowest = Double(ScrollSpeed.range.lowerBound)
        let magnitude: Double
        if steps.isEmpty {
            magnitude = slowest + (max(limit, slowest) - slowest) * pow(abs(travel), curve)
        } else {
            let index = min(steps.count - 1, Int(abs(travel) * Double(steps.count)))
            magnitude = min(max(Double(steps[index]), slowest), max(limit, slowest))
        }
        return travel > 0 ? magnitude : -magnitude
    }
}
