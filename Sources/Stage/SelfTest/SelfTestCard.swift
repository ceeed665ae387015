import Render

/// What a display shows during a self-test, as values: the card is drawn again only
/// when these change (the moving bar aside, which is drawn over it every frame).
package struct SelfTestCardShown: Equatable {
    /// What the owner is asked to do now, or what is being measured.
    package var prompt: String
    /// Taps counted on the outer card.
    package var taps: Int
    /// Inner only: the steps so far, a line each.
    package var steps: [String]
    /// The bar moves every frame, so every vblank carries a new frame to flip.
    package var moving: Bool
    package var tapTarget: Bool
    /// Inner only, once finished with the remote on: the one-time pairing code's QR.
    package var pairingQR: QRMatrix?

    package init(prompt: String, taps: Int = 0, steps: [String] = [], moving: Bool = false, tapTarget: Bool = false) {
        self.prompt = prompt
        self.taps = taps
        self.steps = steps
        self.moving = moving
        self.tapTarget = tapTarget
    }
}

/// The self-test's card: which display this is and which way is up, in large letters,
/// a tap target on the talent's display, and a bar that crosses the display once a
/// second so the flips measured are frames the kiosk drew. The outer card is drawn
/// upright and then turned as the reading text is (mirror, flip, rotation), so the
/// owner checks through the glass exactly what the talent will read.
enum SelfTestCard {
    static let background = Color(rgb: 0x15181d)
    static let ink = Color.white
    static let accent = Color(rgb: 0xffd60a)

    /// The card's still layers on an upright box of `size`.
    static func layers(_ role: DisplayRole, _ shown: SelfTestCardShown, size: PixelSize, painter: GlyphPainter,
                       labels: LabelCache) -> [Layer] {
        let unit = max(8, min(size.width, size.height) / 24)
        var layers: [Layer] = [.fill(PixelRect(size: size), background)]
        func add(_ text: String, px: Int, y: Int, color: Color, centred: Bool = true, x left: Int? = nil,
                 maxWidth: Int? = nil) -> Int {
            let lines = labels.lines(text, style: TextStyle(fontSize: Double(px)), maxWidth: maxWidth ?? size.width - 2 * unit)
            let label = Label(lines: lines, x: unit, y: y, color: color, painter: painter)
            let x = centred ? max(unit, (size.width - label.width) / 2) : left ?? unit
            layers.append(.label(Label(lines: lines, x: x, y: y, color: color, painter: painter)))
            return y + label.height
        }
        // "Up" is the top of this card: an arrow and the word, so a card upside down says so.
        var y = add("▲ TOP ▲", px: unit, y: unit / 2, color: accent)
        y = add(role == .outer ? "OUTER — the talent's display" : "INNER — the operator's display",
                px: unit * 2, y: y + unit, color: ink)
        y = add(shown.prompt, px: unit, y: y + unit / 2, color: accent)
        if role == .outer {
            if shown.tapTarget {
                let side = unit * 6
                let box = PixelRect(x: (size.width - side) / 2, y: y + unit, width: side, height: side)
                layers.append(.fill(box, accent))
                layers.append(.fill(PixelRect(x: box.x + unit / 2, y: box.y + unit / 2, width: side - unit, height: side - unit), background))
                layers.append(.fill(PixelRect(x: box.x + unit * 2, y: box.y + unit * 2, width: side - unit * 4, height: side - unit * 4), accent))
                y = box.maxY
            }
            _ = add("Taps: \(shown.taps)", px: unit, y: y + unit / 2, color: ink)
        } else {
            var stepsWidth = size.width - 2 * unit
            if let qr = shown.pairingQR {
                let side = min(size.width / 3, size.height / 2)
                let code = qr.rects(x: size.width - side - unit, y: y + unit / 2, side: side)
                layers.append(.fill(code.white, .white))
                layers += code.dark.map { .fill($0, Color(rgb: 0x000000)) }
                stepsWidth -= side + unit
                _ = add("Pair a phone", px: max(8, unit * 2 / 3), y: code.white.maxY + unit / 4, color: ink, centred: false,
                        x: code.white.x, maxWidth: side)
            }
            for line in shown.steps {
                y = add(line, px: max(8, unit * 2 / 3), y: y + unit / 4, color: ink, centred: false, maxWidth: stepsWidth)
                if y > size.height - unit * 3 { break }
            }
        }
        return layers
    }

    /// The moving bar, in display space: across the bottom, one crossing a second.
    static func bar(at time: Double, display: PixelSize) -> Layer {
        let unit = max(8, min(display.width, display.height) / 24)
        let fraction = time - time.rounded(.down)
        let x = Int(fraction * Double(display.width - unit))
        return .fill(PixelRect(x: x, y: display.height - unit * 2, width: unit, height: unit * 2), accent)
    }
}
