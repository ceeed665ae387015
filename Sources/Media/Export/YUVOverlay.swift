import CFFmpeg

/// A badge converted once to YUV 4:2:0 with alpha (BT.601, limited range, as x264
/// and the decoder treat rig's recordings), blended into decoded pictures in place.
struct YUVOverlay {
    let x: Int, y: Int, width: Int, height: Int
    private var luma: [UInt8] = [], lumaAlpha: [UInt8] = []
    private var cb: [UInt8] = [], cr: [UInt8] = [], chromaAlpha: [UInt8] = []

    init(_ badge: OverlayPicture) {
        // Even position and size keep the chroma samples aligned with the picture's.
        x = badge.x & ~1
        y = badge.y & ~1
        width = badge.width & ~1
        height = badge.height & ~1
        for row in 0..<height {
            for column in 0..<width {
                let i = (row * badge.width + column) * 4
                let (r, g, b) = (Double(badge.rgba[i]), Double(badge.rgba[i + 1]), Double(badge.rgba[i + 2]))
                luma.append(UInt8((16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255).rounded()))
                lumaAlpha.append(badge.rgba[i + 3])
            }
        }
        for row in stride(from: 0, to: height, by: 2) {
            for column in stride(from: 0, to: width, by: 2) {
                var r = 0.0, g = 0.0, b = 0.0, a = 0.0
                for (dy, dx) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                    let i = ((row + dy) * badge.width + column + dx) * 4
                    let alpha = Double(badge.rgba[i + 3])
                    r += Double(badge.rgba[i]) * alpha
                    g += Double(badge.rgba[i + 1]) * alpha
                    b += Double(badge.rgba[i + 2]) * alpha
                    a += alpha
                }
                let w = a > 0 ? a : 1
                (r, g, b) = (r / w, g / w, b / w)
                cb.append(UInt8((128 + (-37.797 * r - 74.203 * g + 112 * b) / 255).rounded()))
                cr.append(UInt8((128 + (112 * r - 93.786 * g - 18.214 * b) / 255).rounded()))
                chromaAlpha.append(UInt8((a / 4).rounded()))
            }
        }
    }

    /// Blends into a writable YUV 4:2:0 picture; the parts off the picture are skipped.
    func draw(into picture: MediaFrame) {
        blend(luma, lumaAlpha, plane: 0, x: x, y: y, width: width, height: height, picture: picture,
              limitX: picture.width, limitY: picture.height)
        blend(cb, chromaAlpha, plane: 1, x: x / 2, y: y / 2, width: width / 2, height: height / 2, picture: picture,
              limitX: picture.width / 2, limitY: picture.height / 2)
        blend(cr, chromaAlpha, plane: 2, x: x / 2, y: y / 2, width: width / 2, height: height / 2, picture: picture,
              limitX: picture.width / 2, limitY: picture.height / 2)
    }

    private func blend(_ values: [UInt8], _ alphas: [UInt8], plane: Int, x: Int, y: Int, width: Int, height: Int,
                       picture: MediaFrame, limitX: Int, limitY: Int) {
        guard let base = picture.plane(plane) else { return }
        let stride = picture.lineSize(plane)
        for row in max(0, -y)..<height where y + row < limitY {
            let line = base + (y + row) * stride
            for column in max(0, -x)..<width where x + column < limitX {
                let i = row * width + column
                let a = Int(alphas[i])
                guard a > 0 else { continue }
                let old = Int(line[x + column])
                line[x + column] = UInt8((Int(values[i]) * a + old * (255 - a) + 127) / 255)
            }
        }
    }
}
