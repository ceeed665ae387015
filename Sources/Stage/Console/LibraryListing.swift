import Prompter

/// The library as the console shows it: the scripts listed for the sidebar's choice
/// and the search, the folders, and the files not listed. Read from the library once
/// per change, not per frame: listing the folders reads the disk, and a search scans
/// every script's text.
package struct LibraryListing: Equatable {
    package struct Key: Equatable {
        package var search: String
        package var folder: LibrarySelection
        package var generation: Int
    }

    /// The scripts folder; nil when there is no library (the folder is unavailable).
    package var root: String?
    package var scripts: [ScriptEntry] = []
    package var folders: [String] = []
    package var skipped: [ScriptEntry] = []

    package static let empty = LibraryListing()

    package init() {}

    package init(_ library: ScriptLibrary, search: String, folder: LibrarySelection) {
        root = library.root.path
        scripts = library.search(search, in: folder)
        folders = library.folders()
        skipped = library.skipped
    }
}
