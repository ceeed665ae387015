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
    private var familyMatches: [String: (FontFile, FontWarning?)] = [:]
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
        let (file, warning) = try match(family: style.fontFamily)
        return (try typeface(for: file, pixelSize: style.clampedFontSize), warning)
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
        let found = try? match(family: "Noto Color Emoji")
        let file = found?.1 == nil ? found?.0 : nil
        emojiFileCache = .some(file)
        return file
    }

    private func match(family: String) throws(TextError) -> (FontFile, FontWarning?) {
        if let cached = familyMatches[family] { return cached }
        guard let pattern = FcPatternCreate() else { throw .noFontFound(family: family) }
        defer { FcPatternDestroy(pattern) }
        addString(pattern, FC_FAMILY, family)
        guard let (file, families) = bestMatch(pattern) else { throw .noFontFound(family: family) }
        let wanted = family.lowercased()
        let warning = families.contains { $0.lowercased() == wanted }
            ? nil : FontWarning(requestedFamily: family, usedFamily: file.family)
        familyMatches[family] = (file, warning)
        return (file, warning)
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

    private func bestMatch(_ pattern: OpaquePointer) -> (FontFile, [String])? {
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
        return (FontFile(path: path, index: Int(index), family: families.first ?? "?"), families)
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
