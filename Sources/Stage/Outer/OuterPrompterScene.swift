import Prompter
import Render

/// The talent's display in prompter mode: background, the reading text at the
/// frame's row, the reading marker, and the paused badge after a tap. A pure function
/// of (display size, the prompter as the frame shows it, where the reading line sits);
/// the reading text brings the layout and the cached pixels.
package enum OuterPrompterScene {
    /// `markerPosition`: the fraction of the text viewport from its top where the
    /// reading line sits.
    package static func layers(display: PixelSize, prompter: PrompterShown, markerPosition: Double,
                               text: ReadingText) -> [Layer] {
        let frame = PixelRect(size: display)
        let background = prompter.settings.backgroundColor.color
        let ink = prompter.settings.textColor.color
        var layers: [Layer] = [.fill(frame, background)]
        guard let block = text.block, let layout = text.layout else { return layers }
        let transform = block.transform
        let viewport = transform.textSize(forDisplay: display)
        let readingRow = ReadingMarker.readingRow(viewportHeight: viewport.height, position: markerPosition)
        // The line at the frame's row sits on the reading line, to a 48th of a pixel.
        let phases = ChunkedTextBlock.rowFractions
        let top = prompter.offsetFractions - readingRow * phases
        let viewportTop = Int((Double(top) / Double(phases)).rounded(.down))
        // The band is drawn by the text block from a tinted strip (a copy per
        // frame, no blending); the marker layer adds only its two arrows.
        var marker = ReadingMarker(frame: frame, transform: transform, position: markerPosition,
                                   thickness: Int(layout.lineHeight.rounded()), textColor: ink)
        marker.bandInText = true
        let pointer = prompter.settings.pointer
        layers.append(.textBlock(block, frame: frame, viewportTop: viewportTop,
                                 rowFraction: top - viewportTop * phases, highlight: pointer.showsBand ? marker.highlight : nil))
        if pointer.showsArrows { layers.append(.readingMarker(marker)) }
        if prompter.pausedByTap && prompter.state == .paused {
            layers.append(.badge(.paused(in: frame, textColor: ink, background: background)))
        }
        return layers
    }
}
