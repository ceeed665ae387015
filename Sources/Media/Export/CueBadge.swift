/// A picture drawn over the video during the cue: straight-alpha RGBA rows, placed
/// with its top-left corner at (x, y). The caller may render it (with Render's text);
/// `letter(_:pictureWidth:pictureHeight:)` draws a plain one without fonts.
public struct CueBadge: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// width * height * 4 bytes: R, G, B, A.
    public var rgba: [UInt8]
    public var x: Int
    public var y: Int

    public init(width: Int, height: Int, rgba: [UInt8], x: Int, y: Int) throws(MediaError) {
        guard width > 0, height > 0, rgba.count == width * height * 4 else {
            throw .badInput("badge of \(width)x\(height) needs \(max(0, width * height * 4)) RGBA bytes, got \(rgba.count)")
        }
        self.width = width
        self.height = height
        self.rgba = rgba
        self.x = x
        self.y = y
    }

    /// A white letter on a dark, slightly transparent square badge, a quarter of the
    /// picture's height, centred. Letters A-Z and digits; anything else draws "?".
    public static func letter(_ character: Character, pictureWidth: Int, pictureHeight: Int) -> CueBadge {
        let glyph = BadgeFont.glyph(character)
        let cell = max(2, pictureHeight / 4 / (BadgeFont.rows + 4))
        let side = cell * (BadgeFont.rows + 4)
        var rgba = [UInt8](repeating: 0, count: side * side * 4)
        let left = (side - cell * BadgeFont.columns) / 2, top = 2 * cell
        for py in 0..<side {
            for px in 0..<side {
                let gx = (px - left) / cell, gy = (py - top) / cell
                let ink = px >= left && py >= top && gx < BadgeFont.columns && gy < BadgeFont.rows && glyph[gy][gx]
                let i = (py * side + px) * 4
                let value: UInt8 = ink ? 255 : 24
                rgba[i] = value
                rgba[i + 1] = value
                rgba[i + 2] = value
                rgba[i + 3] = ink ? 255 : 220
            }
        }
        // The size and bytes are consistent by construction.
        return CueBadge(unchecked: side, side, rgba, (pictureWidth - side) / 2, (pictureHeight - side) / 2)
    }

    private init(unchecked width: Int, _ height: Int, _ rgba: [UInt8], _ x: Int, _ y: Int) {
        self.width = width
        self.height = height
        self.rgba = rgba
        self.x = x
        self.y = y
    }
}

/// A 5x7 bitmap font for the fallback badge: enough for S and Z and their kin.
enum BadgeFont {
    static let columns = 5
    static let rows = 7

    static func glyph(_ character: Character) -> [[Bool]] {
        let rows = shapes[Character(character.uppercased())] ?? shapes["?"] ?? []
        return rows.map { row in row.map { $0 == "#" } }
    }

    private static let shapes: [Character: [String]] = [
        "A": [" ### ", "#   #", "#   #", "#####", "#   #", "#   #", "#   #"],
        "B": ["#### ", "#   #", "#   #", "#### ", "#   #", "#   #", "#### "],
        "C": [" ####", "#    ", "#    ", "#    ", "#    ", "#    ", " ####"],
        "D": ["#### ", "#   #", "#   #", "#   #", "#   #", "#   #", "#### "],
        "E": ["#####", "#    ", "#    ", "#### ", "#    ", "#    ", "#####"],
        "F": ["#####", "#    ", "#    ", "#### ", "#    ", "#    ", "#    "],
        "G": [" ####", "#    ", "#    ", "#  ##", "#   #", "#   #", " ####"],
        "H": ["#   #", "#   #", "#   #", "#####", "#   #", "#   #", "#   #"],
        "I": ["#####", "  #  ", "  #  ", "  #  ", "  #  ", "  #  ", "#####"],
        "J": ["#####", "    #", "    #", "    #", "    #", "#   #", " ### "],
        "K": ["#   #", "#  # ", "# #  ", "##   ", "# #  ", "#  # ", "#   #"],
        "L": ["#    ", "#    ", "#    ", "#    ", "#    ", "#    ", "#####"],
        "M": ["#   #", "## ##", "# # #", "#   #", "#   #", "#   #", "#   #"],
        "N": ["#   #", "##  #", "# # #", "#  ##", "#   #", "#   #", "#   #"],
        "O": [" ### ", "#   #", "#   #", "#   #", "#   #", "#   #", " ### "],
        "P": ["#### ", "#   #", "#   #", "#### ", "#    ", "#    ", "#    "],
        "Q": [" ### ", "#   #", "#   #", "#   #", "# # #", "#  # ", " ## #"],
        "R": ["#### ", "#   #", "#   #", "#### ", "# #  ", "#  # ", "#   #"],
        "S": [" ####", "#    ", "#    ", " ### ", "    #", "    #", "#### "],
        "T": ["#####", "  #  ", "  #  ", "  #  ", "  #  ", "  #  ", "  #  "],
        "U": ["#   #", "#   #", "#   #", "#   #", "#   #", "#   #", " ### "],
        "V": ["#   #", "#   #", "#   #", "#   #", "#   #", " # # ", "  #  "],
        "W": ["#   #", "#   #", "#   #", "#   #", "# # #", "## ##", "#   #"],
        "X": ["#   #", "#   #", " # # ", "  #  ", " # # ", "#   #", "#   #"],
        "Y": ["#   #", "#   #", " # # ", "  #  ", "  #  ", "  #  ", "  #  "],
        "Z": ["#####", "    #", "   # ", "  #  ", " #   ", "#    ", "#####"],
        "0": [" ### ", "#   #", "#  ##", "# # #", "##  #", "#   #", " ### "],
        "1": ["  #  ", " ##  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "],
        "2": [" ### ", "#   #", "    #", "   # ", "  #  ", " #   ", "#####"],
        "3": ["#### ", "    #", "    #", " ### ", "    #", "    #", "#### "],
        "4": ["   # ", "  ## ", " # # ", "#  # ", "#####", "   # ", "   # "],
        "5": ["#####", "#    ", "#### ", "    #", "    #", "#   #", " ### "],
        "6": [" ### ", "#    ", "#    ", "#### ", "#   #", "#   #", " ### "],
        "7": ["#####", "    #", "   # ", "  #  ", " #   ", " #   ", " #   "],
        "8": [" ### ", "#   #", "#   #", " ### ", "#   #", "#   #", " ### "],
        "9": [" ### ", "#   #", "#   #", " ####", "    #", "    #", " ### "],
        "?": [" ### ", "#   #", "    #", "   # ", "  #  ", "     ", "  #  "],
    ]
}
