import CFontconfig

/// Finds fonts with fontconfig and keeps every `Typeface` it has opened.
///
/// It resolves a family name to a primary typeface (fontconfig's best match plus a
/// `FontWarning` when the family is not installed) and finds fallback typefaces for
/// characters the primary lacks (Noto for other scripts, Noto Color Emoji). Glyphs
/// refer to typefaces by their `id`, a small index into this library, so laid-out
/// lines stay compact and carry no references.
///
/// Not thread-safe: one library belongs to the rendering thread.
public final class FontLibrary {
    /// A font file as fontconfig names it.
    struct FontFile: Hashable {
        let path: String
        let index: Int
        let family: String
    }

    private struct TypefaceKey: Hashable {
        let file: FontFile
        let size64: Int
    }

    private let config: OpaquePointer
    private let freetype: FreeTypeLibrary
    private var typefaces: [Typeface] = []
    private var typefaceIDs: [TypefaceKey: UInt16] = [:]
    private struct FaceRequest: Hashable {
        let family: String
        let weight: Int
        let italic: Bool
    }

    /// A matched file, the family warning, and the weight and slant the file really has.
    private struct FaceMatch {
        let file: FontFile
        let warning: FontWarning?
        let weight: Int
        let italic: Bool
    }

    private var familyMatches: [FaceRequest: FaceMatch] = [:]
    /// Fallbacks found so far for one reading family, tried before asking
    /// fontconfig again (a serif family gets serif script fonts, so per family).
    private struct Fallbacks {
        var files: [FontFile] = []
        var fileByScalar: [UInt32: FontFile] = [:]
        var uncovered: Set<UInt32> = []
    }
    private var fallbacks: [String: Fallbacks] = [:]

    public init() throws(TextError) {
        guard let config = FcInitLoadConfigAndFonts() else { throw .fontconfigUnavailable }
        self.config = config
        freetype = try FreeTypeLibrary()
    }

    deinit {
        // Typefaces must be released before the FreeType library; they hold a
        // reference to it, so dropping them first is enough.
        typefaces.removeAll()
        FcConfigDestroy(config)
    }

    /// The typeface a glyph refers to.
    public func typeface(_ id: UInt16) -> Typeface { typefaces[Int(id)] }

    /// The typeface for an id that may not come from this library (a glyph built
    /// by hand): nil instead of a crash.
    func existingTypeface(_ id: UInt16) -> Typeface? {
        Int(id) < typefaces.count ? typefaces[Int(id)] : nil
    }

    /// The typeface for a style's family at its size, and a warning when fontconfig
    /// had to substitute another family.
    public func primaryTypeface(for style: TextStyle) throws(TextError) -> (Typeface, FontWarning?) {
        let found = try match(FaceRequest(family: style.fontFamily, weight: style.weight, italic: false))
        return (try typeface(for: found.file, pixelSize: style.clampedFontSize), found.warning)
    }

    /// The reading family's own face for marked text (issue 42): bold for strong (the
    /// heaviest face when the reading weight is already bold), italic for emphasis,
    /// fontconfig's real files only (a family without an italic gets its upright face,
    /// never a slanted one).
    func markedTypeface(for style: TextStyle, strong: Bool, italic: Bool) throws(TextError) -> Typeface {
        let weight = strong ? (style.weight >= FontWeight.bold ? FontWeight.black : FontWeight.bold) : style.weight
        let found = try match(FaceRequest(family: style.fontFamily, weight: weight, italic: italic))
        return try typeface(for: found.file, pixelSize: style.clampedFontSize)
    }

    /// A sentence when the family has no face of the style's weight and the nearest one
    /// is used instead ("Noto Sans has no semibold face: bold is used"), else nil.
    public func weightNote(for style: TextStyle) -> String? {
        guard let found = try? match(FaceRequest(family: style.fontFamily, weight: style.weight, italic: false)),
              FontWeight.name(found.weight) != FontWeight.name(style.weight) else { return nil }
        return "\(found.file.family) has no \(FontWeight.name(style.weight)) face here: "
            + "\(FontWeight.name(found.weight)) is used"
    }

    /// A typeface at `pixelSize` that has a glyph for `scalar`, or nil when no installed
    /// font covers it. `preferEmoji` asks for a colour emoji font first (U+FE0F follows).
    func fallbackTypeface(for scalar: UInt32, pixelSize: Double, family: String,
                          preferEmoji: Bool = false) -> Typeface? {
        var known = fallbacks[family] ?? Fallbacks()
        defer { fallbacks[family] = known }
        if known.uncovered.contains(scalar) { return nil }
        if preferEmoji, let emoji = emojiFile(),
           let face = try? typeface(for: emoji, pixelSize: pixelSize), face.covers(scalar) {
            return face
        }
        if let file = known.fileByScalar[scalar] {
            return try? typeface(for: file, pixelSize: pixelSize)
        }
        for file in known.files {
            if let face = try? typeface(for: file, pixelSize: pixelSize), face.covers(scalar) {
                known.fileByScalar[scalar] = file
                return face
            }
        }
        guard let file = matchCovering(scalar: scalar, family: family),
              let face = try? typeface(for: file, pixelSize: pixelSize), face.covers(scalar) else {
            known.uncovered.insert(scalar)
            return nil
        }
        known.files.append(file)
        known.fileByScalar[scalar] = file
        return face
    }

    func typeface(for file: FontFile, pixelSize: Double) throws(TextError) -> Typeface {
        let key = TypefaceKey(file: file, size64: Int((pixelSize * 64).rounded()))
        if let id = typefaceIDs[key] { return typefaces[Int(id)] }
        let id = UInt16(truncatingIfNeeded: typefaces.count)
        let face = try Typeface(id: id, library: freetype, path: file.path, index: file.index,
                                family: file.family, pixelSize: Double(key.size64) / 64)
        typefaces.append(face)
        typefaceIDs[key] = id
        return face
    }

    private var emojiFileCache: FontFile??
    private func emojiFile() -> FontFile? {
        if let cached = emojiFileCache { return cached }
        let found = try? match(FaceRequest(family: "Noto Color Emoji", weight: FontWeight.regular, italic: false))
        let file = found?.warning == nil ? found?.file : nil
        emojiFileCache = .some(file)
        return file
    }

    private func match(_ request: FaceRequest) throws(TextError) -> FaceMatch {
        if let cached = familyMatches[request] { return cached }
        let family = request.family
        guard let pattern = FcPatternCreate() else { throw .noFontFound(family: family) }
        defer { FcPatternDestroy(pattern) }
        addString(pattern, FC_FAMILY, family)
        FcPatternAddInteger(pattern, FC_WEIGHT, Int32(request.weight))
        FcPatternAddInteger(pattern, FC_SLANT, request.italic ? Int32(FC_SLANT_ITALIC) : Int32(FC_SLANT_ROMAN))
        guard let best = bestMatch(pattern) else { throw .noFontFound(family: family) }
        let wanted = family.lowercased()
        let warning = best.families.contains { $0.lowercased() == wanted }
            ? nil : FontWarning(requestedFamily: family, usedFamily: best.file.family)
        let found = FaceMatch(file: best.file, warning: warning, weight: best.weight, italic: best.italic)
        familyMatches[request] = found
        return found
    }

    private func matchCovering(scalar: UInt32, family: String) -> FontFile? {
        guard let pattern = FcPatternCreate(), let charset = FcCharSetCreate() else { return nil }
        defer { FcPatternDestroy(pattern); FcCharSetDestroy(charset) }
        FcCharSetAddChar(charset, scalar)
        addString(pattern, FC_FAMILY, family)
        FcPatternAddCharSet(pattern, FC_CHARSET, charset)
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        // Untrimmed: trimming drops fonts that add no coverage, such as a serif twin.
        guard let set = FcFontSort(config, pattern, 0, nil, &result) else { return nil }
        defer { FcFontSetDestroy(set) }
        // fontconfig's order puts coverage first, then the family's generic
        // substitutes (DejaVu before Noto on Debian). Among the fonts that have the
        // character prefer Noto, whose script fonts match the reading families.
        // A serif reading family gets Noto Serif script fonts where they exist, a
        // sans one Noto Sans (not a display style such as Noto Kufi).
        let wantSerif = family.localizedLowercase.contains("serif")
        var firstCovering: FontFile?, firstNoto: FontFile?
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[i] else { continue }
            var fontCharset: OpaquePointer?
            guard FcPatternGetCharSet(font, FC_CHARSET, 0, &fontCharset) == FcResultMatch,
                  FcCharSetHasChar(fontCharset, scalar) != 0,
                  let path = string(font, FC_FILE, 0) else { continue }
            var index: Int32 = 0
            if FcPatternGetInteger(font, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
            let file = FontFile(path: path, index: Int(index), family: string(font, FC_FAMILY, 0) ?? "?")
            if file.family.hasPrefix(wantSerif ? "Noto Serif" : "Noto Sans") { return file }
            // Other Noto styles (Kufi, Naskh, ...) when the matching one is missing.
            if file.family.hasPrefix("Noto"), firstNoto == nil { firstNoto = file }
            if firstCovering == nil { firstCovering = file }
        }
        return firstNoto ?? firstCovering
    }

    private func bestMatch(_ pattern: OpaquePointer) -> (file: FontFile, families: [String], weight: Int, italic: Bool)? {
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let font = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(font) }
        guard let path = string(font, FC_FILE, 0) else { return nil }
        var index: Int32 = 0
        if FcPatternGetInteger(font, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        var families: [String] = []
        while let name = string(font, FC_FAMILY, Int32(families.count)) { families.append(name) }
        var weight: Int32 = Int32(FontWeight.regular), slant: Int32 = 0
        if FcPatternGetInteger(font, FC_WEIGHT, 0, &weight) != FcResultMatch { weight = Int32(FontWeight.regular) }
        if FcPatternGetInteger(font, FC_SLANT, 0, &slant) != FcResultMatch { slant = 0 }
        return (FontFile(path: path, index: Int(index), family: families.first ?? "?"), families, Int(weight),
                slant != Int32(FC_SLANT_ROMAN))
    }

    private func addString(_ pattern: OpaquePointer, _ object: String, _ value: String) {
        value.withCString { chars in
            chars.withMemoryRebound(to: FcChar8.self, capacity: value.utf8.count + 1) {
                _ = FcPatternAddString(pattern, object, $0)
            }
        }
    }

    private func string(_ pattern: OpaquePointer, _ object: String, _ n: Int32) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, object, n, &value) == FcResultMatch, let value else { return nil }
        return String(cString: value)
    }
}
