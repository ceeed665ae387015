import Render

/// How far the reading text moved between two composed outer frames, read from
/// their pixels alone (never from the engine's offset).
///
/// Each frame is reduced to an ink profile along the scroll axis: per display row
/// (or column, for a quarter turn) the summed coverage of the text colour over
/// the background. The profile splits into runs of ink (the lines, separated by
/// blank rows); a run's centroid moves exactly with the text, because
/// antialiased glyphs are area coverage and the first moment of an area is
/// preserved by any shift, whole or fractional. A run cut by the frame's edge is
/// not used; the step is the mean centroid shift of the runs seen whole in both
/// frames, paired by the ideal step.
struct ScrollStepMeter {
    enum Axis { case rows, columns }

    struct InkRun: Equatable {
        var centroid: Double
        var mass: Double
    }

    let axis: Axis
    let background: Color
    let ink: Color

    /// The runs of ink of one frame, in order along the axis.
    func runs(of canvas: Canvas) -> [InkRun] {
        Self.runs(in: profile(of: canvas))
    }

    /// Text coverage summed across the axis (a glyph pixel of full coverage is 1).
    func profile(of canvas: Canvas) -> [Double] {
        guard let base = canvas.pixels.baseAddress else { return [] }
        return profile(pixels: UnsafeRawPointer(base), width: canvas.width, height: canvas.height,
                       stride: canvas.width * 4)
    }

    /// The same over XRGB8888 pixels `stride` bytes a row apart (a display's buffer).
    ///
    /// The channel's bytes are summed as integers and turned into coverage once per
    /// row or column (coverage is linear in the byte, so the sum is the same): the
    /// running kiosk's probe reads every shown frame on its loop, and a conversion per
    /// pixel took longer than a 60 Hz frame at 4K, so the kiosk measured showed only
    /// every other vblank.
    func profile(pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int) -> [Double] {
        let channel = strongestChannel
        let base = Double(channel.component(background)), span = Double(channel.component(ink)) - base
        guard span != 0 else { return [] }
        let shift = UInt32(channel.shift)
        func coverage(_ sum: Int, pixels count: Int) -> Double { (Double(sum) - base * Double(count)) / span }
        switch axis {
        case .rows:
            return (0..<height).map { y in
                let row = (pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                var sum = 0
                for x in 0..<width { sum &+= Int((row[x] >> shift) & 0xff) }
                return coverage(sum, pixels: width)
            }
        case .columns:
            var sums = [Int](repeating: 0, count: width)
            sums.withUnsafeMutableBufferPointer { sums in
                for y in 0..<height {
                    let row = (pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<width { sums[x] &+= Int((row[x] >> shift) & 0xff) }
                }
            }
            return sums.map { coverage($0, pixels: height) }
        }
    }

    func runs(pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int) -> [InkRun] {
        Self.runs(in: profile(pixels: pixels, width: width, height: height, stride: stride))
    }

    /// Runs of rows holding more than a trace of ink; runs touching either end are
    /// cut by the frame and left out.
    static func runs(in profile: [Double], threshold: Double = 0.05) -> [InkRun] {
        var result: [InkRun] = []
        var index = 0
        while index < profile.count {
            guard profile[index] > threshold else { index += 1; continue }
            let start = index
            var mass = 0.0, moment = 0.0
            while index < profile.count, profile[index] > threshold {
                mass += profile[index]
                moment += profile[index] * (Double(index) + 0.5)
                index += 1
            }
            if start > 0, index < profile.count { result.append(InkRun(centroid: moment / mass, mass: mass)) }
        }
        return result
    }

    /// The text's displacement from `before` to `after` (signed, along the axis),
    /// or nil when no line is seen whole in both. `ideal` only pairs the runs: a
    /// run pairs with the one nearest where the ideal step puts it, within a third
    /// of the gap between lines, holding the same ink (a run whose mass changed
    /// merged with a neighbour or is not the same line).
    static func step(from before: [InkRun], to after: [InkRun], ideal: Double) -> Double? {
        var shifts: [Double] = []
        for run in before {
            let predicted = run.centroid + ideal
            guard let match = after.min(by: { abs($0.centroid - predicted) < abs($1.centroid - predicted) }),
                  abs(match.centroid - predicted) < 3,
                  abs(match.mass - run.mass) <= 0.02 * run.mass
            else { continue }
            shifts.append(match.centroid - run.centroid)
        }
        return shifts.isEmpty ? nil : shifts.reduce(0, +) / Double(shifts.count)
    }

    private enum Channel {
        case red, green, blue
        var shift: UInt32 { switch self { case .red: 16; case .green: 8; case .blue: 0 } }
        func component(_ color: Color) -> UInt8 {
            switch self { case .red: color.red; case .green: color.green; case .blue: color.blue }
        }
    }

    /// The channel where ink and background differ most: the best resolution.
    private var strongestChannel: Channel {
        let contrast = { (channel: Channel) in abs(Int(channel.component(ink)) - Int(channel.component(background))) }
        return [Channel.green, .red, .blue].reduce(Channel.green) { contrast($1) > contrast($0) ? $1 : $0 }
    }
}
