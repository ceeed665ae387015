import Prompter
import Render

/// The talent's display in prompter mode: background, the reading text at the
/// engine's offset for the target time, the reading marker, and the paused badge
/// after a tap. A pure function of (display size, state, target time); the
/// reading text brings the layout and the cached pixels.
package enum OuterPrompterScene {
    package static func layers(display: PixelSize, state: PrompterSceneState, at time: Double,
                       text: ReadingText) -> [Layer] {
        let frame = PixelRect(size: display)
        let background = state.settings.backgroundColor.color
        let ink = state.settings.textColor.color
        var layers: [Layer] = [.fill(frame, background)]
        guard let block = text.block, let layout = text.layout else { return layers }
        let transform = block.transform
        let viewport = transform.textSize(forDisplay: display)
        let readingRow = ReadingMarker.readingRow(viewportHeight: viewport.height,
                                                  position: state.markerPosition)
        // The line at the engine's offset sits on the reading line.
        let offset = state.engine.offset(at: time)
        let viewportTop = Int(offset.isFinite ? offset.rounded() : 0) - readingRow
        // The band is drawn by the text block from a tinted strip (a copy per
        // frame, no blending); the marker layer adds only its two arrows.
        var marker = ReadingMarker(frame: frame, transform: transform, position: state.markerPosition,
                                   thickness: Int(layout.lineHeight.rounded()), textColor: ink)
        marker.bandInText = true
        let pointer = state.settings.pointer
        layers.append(.textBlock(block, frame: frame, viewportTop: viewportTop,
                                 highlight: pointer.showsBand ? marker.highlight : nil))
        if pointer.showsArrows { layers.append(.readingMarker(marker)) }
        if state.pausedByTap && state.engine.state(at: time) == .paused {
            layers.append(.badge(.paused(in: frame, textColor: ink, background: background)))
        }
        return layers
    }
}
