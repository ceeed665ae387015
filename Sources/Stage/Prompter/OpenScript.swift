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
