/// Aspect-fit placement of a camera frame inside a target: the whole frame is shown,
/// scaled uniformly and centred; the rest of the target is letterbox (or pillarbox).
/// Never cropped: a talent must see the edges of the shot they are in.
extension PixelRect {
    /// The largest rectangle with the source's aspect that fits `targetWidth`x`targetHeight`.
    public static func fit(sourceWidth: Int, sourceHeight: Int, targetWidth: Int, targetHeight: Int) -> PixelRect {
        guard sourceWidth > 0, sourceHeight > 0, targetWidth > 0, targetHeight > 0 else {
            return PixelRect(x: 0, y: 0, width: 0, height: 0)
        }
        // Cross-multiplied so equal aspects give the exact target with no rounding.
        let width: Int
        let height: Int
        if sourceWidth * targetHeight >= targetWidth * sourceHeight {
            width = targetWidth
            height = max(1, min(targetHeight, (targetWidth * sourceHeight * 2 + sourceWidth) / (2 * sourceWidth)))
        } else {
            height = targetHeight
            width = max(1, min(targetWidth, (targetHeight * sourceWidth * 2 + sourceHeight) / (2 * sourceHeight)))
        }
        return PixelRect(x: (targetWidth - width) / 2, y: (targetHeight - height) / 2, width: width, height: height)
    }

    /// The letterbox bars around the fit inside the target: up to two bars, top/bottom or
    /// left/right, each non-empty.
    func bars(targetWidth: Int, targetHeight: Int) -> [PixelRect] {
        var bars: [PixelRect] = []
        if y > 0 { bars.append(PixelRect(x: 0, y: 0, width: targetWidth, height: y)) }
        let below = targetHeight - (y + height)
        if below > 0 { bars.append(PixelRect(x: 0, y: y + height, width: targetWidth, height: below)) }
        if x > 0 { bars.append(PixelRect(x: 0, y: y, width: x, height: height)) }
        let right = targetWidth - (x + width)
        if right > 0 { bars.append(PixelRect(x: x + width, y: y, width: right, height: height)) }
        return bars
    }
}
