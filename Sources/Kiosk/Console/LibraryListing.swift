import Prompter

/// The library as the console shows it: the scripts listed for the sidebar's choice
/// and the search, the folders, and the files not listed. Read from the library once
/// per change, not per frame: listing the folders reads the disk, and a search scans
/// every script's text.
struct LibraryListing {
    struct Key: Equatable {
        var search: String
        var folder: LibrarySelection
        var generation: Int
    }

    var scripts: [ScriptEntry] = []
    var folders: [String] = []
    var skipped: [ScriptEntry] = []

    static let empty = LibraryListing()

    init() {}

    init(_ library: ScriptLibrary, search: String, folder: LibrarySelection) {
        scripts = library.search(search, in: folder)
        folders = library.folders()
        skipped = library.skipped
    }
}
