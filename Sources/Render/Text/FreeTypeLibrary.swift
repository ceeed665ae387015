import CFreeType

/// Owns the FT_Library. Every `Typeface` keeps a reference so the library outlives
/// the faces made from it (FreeType requires faces to be done before the library).
final class FreeTypeLibrary {
    let handle: FT_Library

    init() throws(TextError) {
        var library: FT_Library?
        let error = FT_Init_FreeType(&library)
        guard error == 0, let library else { throw .freetypeUnavailable(code: error) }
        handle = library
    }

    deinit { FT_Done_FreeType(handle) }
}
