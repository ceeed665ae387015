import Foundation
import Markup

/// What the importer hands back for one document, made on its thread: the text already
/// read for prompting (a converted document can be megabytes, too long to parse on the
/// event loop), or the sentence saying why there is none. The library takes it on its
/// next scan; it never reaches into the library itself.
struct ImportedScript: Sendable {
    /// The source's size and modification time when it was read: a result for an older
    /// version of the file is dropped.
    var size: Int
    var modified: Date
    /// The `max_script_mb` in bytes it was made under.
    var limit: Int
    var outcome: Outcome

    enum Outcome: Sendable {
        case text(source: String, reading: String, markers: [ScriptMarker], markup: ReadingMarkup, wordCount: Int)
        case refused(String)
    }
}
