import Foundation
import Markup
import Prompter

/// The script on the prompter: its reading text, with the markers and marks in it.
package struct OpenScript: Equatable {
    package let id: String
    package let title: String
    package let text: String
    package let wordCount: Int
    package let repaired: Bool
    /// The named markers of the text (headings, `>>` lines).
    package var markers: [ScriptMarker] = []
    /// Emphasis, directions and highlights on `text`.
    package var markup: ReadingMarkup = .none
}

extension OpenScript {
    /// The library's script `id` as read now, under its listed title (its file name
    /// while it is not listed yet).
    init(id: String, in library: ScriptLibrary) throws(ScriptLibraryError) {
        let text = try library.readScript(id: id)
        self.init(id: id, title: library.entry(id: id)?.title ?? (id as NSString).deletingPathExtension, reading: text)
    }

    /// The library's script `id` as read (`ScriptLibrary.readScript`), listed as `title`.
    init(id: String, title: String, reading text: ScriptText) {
        self.init(id: id, title: title, text: text.readingText, wordCount: text.wordCount,
                  repaired: text.repaired, markers: text.markers, markup: text.markup)
    }
}
