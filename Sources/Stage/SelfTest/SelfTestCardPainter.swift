import Render

/// Draws the self-test's cards: each display's still card composed once (upright, then
/// turned as the reading text is on the outer) and kept, so a frame is one copy plus
/// the moving bar, fast enough that the flips measured are the display's, not ours.
final class SelfTestCardPainter {
    private struct Key: Equatable {
        var shown: SelfTestCardShown
        var size: PixelSize
        var transform: TextTransform
    }

    private let painter: GlyphPainter?
    private let labels: LabelCache?
    private var cards: [DisplayRole: (key: Key, image: Canvas)] = [:]
    /// What each display last showed of its card (a still card is not drawn twice).
    private var drawn: [DisplayRole: Key] = [:]
    private let compositor = Compositor()

    init(painter: GlyphPainter?) {
        self.painter = painter
        labels = painter.map { LabelCache(painter: $0) }
    }

    /// Draws `shown` into `buffer` if it differs from what the display shows (always
    /// while it moves); false when nothing was drawn.
    func draw(_ role: DisplayRole, _ shown: SelfTestCardShown, transform: TextTransform, at time: Double,
              into buffer: BorrowedFrameBuffer, mustDraw: Bool) -> Bool {
        let key = Key(shown: shown, size: buffer.size, transform: transform)
        guard mustDraw || shown.moving || drawn[role] != key else { return false }
        var layers: [Layer]
        if let image = image(role, key) {
            layers = [.image(image, x: 0, y: 0)]
        } else {
            layers = [.fill(PixelRect(size: buffer.size), SelfTestCard.background)]
        }
        if shown.moving { layers.append(SelfTestCard.bar(at: time, display: buffer.size)) }
        compositor.compose(layers, into: buffer)
        drawn[role] = key
        return true
    }

    /// The display forgets its card (the self-test ended): the next card is drawn.
    func forget(_ role: DisplayRole) { drawn[role] = nil }

    private func image(_ role: DisplayRole, _ key: Key) -> Canvas? {
        if let card = cards[role], card.key == key { return card.image }
        guard let painter, let labels else { return nil }
        let upright = key.transform.textSize(forDisplay: key.size)
        guard let canvas = try? Canvas(size: upright) else { return nil }
        labels.beginFrame()
        Compositor().compose(SelfTestCard.layers(role, key.shown, size: upright, painter: painter, labels: labels),
                             into: canvas)
        guard let turned = key.transform.apply(to: canvas) else { return nil }
        cards[role] = (key, turned)
        return turned
    }
}
