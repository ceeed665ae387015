/// The reading marker's arrow masks and colour, kept between frames by one
/// compositor: the arrows are the same every frame, and working out their
/// coverage pixel by pixel cost as much as a good part of a frame's copying.
final class ArrowMaskCache {
    struct Key: Hashable {
        var width: Int
        var height: Int
        var thickness: Int
        var runsAcross: Bool
        var atEnd: Bool
    }

    private var masks: [Key: AlphaMask] = [:]
    private var solid: (color: Color, fill: SolidFill)?

    /// The mask for `key`, made by `make` the first time.
    func mask(_ key: Key, make: () -> AlphaMask?) -> AlphaMask? {
        if let mask = masks[key] { return mask }
        // A handful of marker sizes at most; start over rather than grow.
        if masks.count >= 16 { masks.removeAll() }
        let made = make()
        masks[key] = made
        return made
    }

    func solidFill(_ color: Color) -> SolidFill? {
        if let solid, solid.color == color { return solid.fill }
        guard let fill = SolidFill(color) else { return nil }
        solid = (color, fill)
        return fill
    }
}
