import CPixman

/// Mirror, vertical flip and rotation of the reading text, and nothing else.
///
/// Order: mirror and flip act on the upright text, then the result is turned
/// clockwise by `rotation`. So rotation 180 is exactly mirror + flip.
///
/// Coordinates: "text space" is the upright column the layout fills; its width is
/// the column (display width, or display height when rotated 90/270) and y grows
/// down the script. The "viewport" is the part of text space one display shows.
public struct TextTransform: Hashable, Sendable, CustomStringConvertible {
    public enum Rotation: Int, CaseIterable, Sendable {
        case none = 0, quarter = 90, half = 180, threeQuarters = 270

        /// nil for angles other than 0, 90, 180, 270.
        public init?(degrees: Int) {
            self.init(rawValue: ((degrees % 360) + 360) % 360)
        }
    }

    public var mirror: Bool
    public var flip: Bool
    public var rotation: Rotation

    public init(mirror: Bool = false, flip: Bool = false, rotation: Rotation = .none) {
        self.mirror = mirror
        self.flip = flip
        self.rotation = rotation
    }

    public static let identity = TextTransform()

    /// All 16 combinations, for tests and benchmarks.
    public static var allCombinations: [TextTransform] {
        Rotation.allCases.flatMap { rotation in
            [false, true].flatMap { mirror in
                [false, true].map { TextTransform(mirror: mirror, flip: $0, rotation: rotation) }
            }
        }
    }

    public var isIdentity: Bool { self == .identity }

    /// With rotation 90/270 the text runs along the display's other axis.
    public var swapsAxes: Bool { rotation == .quarter || rotation == .threeQuarters }

    public var description: String {
        "mirror \(mirror ? "on" : "off"), flip \(flip ? "on" : "off"), rotation \(rotation.rawValue)"
    }

    /// The upright text-space size that fills a display (or any box) of `size`.
    public func textSize(forDisplay size: PixelSize) -> PixelSize {
        swapsAxes ? PixelSize(width: size.height, height: size.width) : size
    }

    /// The display-space size of upright text of `size`.
    public func displaySize(forText size: PixelSize) -> PixelSize {
        swapsAxes ? PixelSize(width: size.height, height: size.width) : size
    }

    /// Where the point (u, v) of an upright box of `size` lands once transformed
    /// (continuous coordinates: corners map to corners).
    func map(_ u: Double, _ v: Double, in size: PixelSize) -> (Double, Double) {
        let w = Double(size.width), h = Double(size.height)
        let u1 = mirror ? w - u : u
        let v1 = flip ? h - v : v
        switch rotation {
        case .none: return (u1, v1)
        case .quarter: return (h - v1, u1)
        case .half: return (w - u1, h - v1)
        case .threeQuarters: return (v1, w - u1)
        }
    }

    /// The display rectangle showing `rect` of a text viewport of `viewport` size.
    public func displayRect(ofText rect: PixelRect, viewport: PixelSize) -> PixelRect {
        let a = map(Double(rect.x), Double(rect.y), in: viewport)
        let b = map(Double(rect.maxX), Double(rect.maxY), in: viewport)
        let x = Int(min(a.0, b.0)), y = Int(min(a.1, b.1))
        return PixelRect(x: x, y: y, width: Int(max(a.0, b.0)) - x, height: Int(max(a.1, b.1)) - y)
    }

    /// The pixman transform that samples an upright image of `size` so that a
    /// copy fills an image of `displaySize(forText: size)` in final orientation.
    /// pixman maps destination pixel centres back to the source, so this is the
    /// inverse of `map`.
    func pixmanSamplingTransform(forText size: PixelSize) -> pixman_transform? {
        let origin = map(0, 0, in: size)
        let unitU = map(1, 0, in: size), unitV = map(0, 1, in: size)
        var forward = pixman_f_transform()
        forward.m = ((unitU.0 - origin.0, unitV.0 - origin.0, origin.0),
                     (unitU.1 - origin.1, unitV.1 - origin.1, origin.1),
                     (0, 0, 1))
        var inverse = pixman_f_transform()
        var fixed = pixman_transform()
        guard pixman_f_transform_invert(&inverse, &forward) != 0,
              pixman_transform_from_pixman_f_transform(&fixed, &inverse) != 0
        else { return nil }
        return fixed
    }

    /// A mirror, a flip or a half turn applied to `canvas` in place: rows stay rows,
    /// so each is reversed or swapped with its opposite, many times faster than
    /// pixman samples through a general transform and with no second canvas. Does
    /// nothing for a quarter turn (use `apply`).
    public func reflect(_ canvas: Canvas) {
        guard !swapsAxes, let base = canvas.pixels.baseAddress else { return }
        let reverseRows = flip != (rotation == .half), reverseColumns = mirror != (rotation == .half)
        let width = canvas.width, height = canvas.height
        if reverseColumns {
            for y in 0..<height {
                var row = UnsafeMutableBufferPointer(start: base + y * width, count: width)
                row.reverse()
            }
        }
        guard reverseRows else { return }
        for y in 0..<height / 2 {
            let top = base + y * width, bottom = base + (height - 1 - y) * width
            for x in 0..<width { swap(&top[x], &bottom[x]) }
        }
    }

    /// An upright image turned into this transform's orientation: the image itself when
    /// the transform is the identity, nil when memory runs out. `reusing` is a canvas
    /// of the final size to draw into instead of a new one.
    public func apply(to upright: Canvas, reusing spare: Canvas? = nil) -> Canvas? {
        guard !isIdentity else { return upright }
        let size = displaySize(forText: upright.size)
        guard let final = spare.flatMap({ $0.size == size ? $0 : nil }) ?? (try? Canvas(size: size)) else { return nil }
        guard var sampling = pixmanSamplingTransform(forText: upright.size) else { return nil }
        pixman_image_set_transform(upright.pixmanImage, &sampling)
        pixman_image_set_filter(upright.pixmanImage, PIXMAN_FILTER_NEAREST, nil, 0)
        // The one transformed copy: pixman samples through the transform (the memcpy
        // path of PixmanDraw.copy knows nothing of transforms).
        pixman_image_composite32(PIXMAN_OP_SRC, upright.pixmanImage, nil, final.pixmanImage, 0, 0, 0, 0,
                                 0, 0, Int32(final.width), Int32(final.height))
        pixman_image_set_transform(upright.pixmanImage, nil)
        return final
    }
}
