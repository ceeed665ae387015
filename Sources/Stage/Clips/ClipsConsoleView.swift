import Render

/// What the Clips screen reads for one frame: the list the kiosk handed in, the
/// replay as it stands at the frame's time, and its picture fitted into a rectangle.
package struct ClipsConsoleView {
    package var input: ClipsInput
    package var replay: ClipReplay.Shown?
    /// The replay's picture, scaled to fit `rect` (unmirrored, as recorded).
    package var picture: (PixelRect) -> [Layer]

    package static var none: ClipsConsoleView { ClipsConsoleView(input: ClipsInput(), replay: nil, picture: { _ in [] }) }

    /// The clips of the list the operator chose, newest first.
    package func rows(_ list: ClipList) -> [ClipSummary] {
        input.rows(list)
    }
}
