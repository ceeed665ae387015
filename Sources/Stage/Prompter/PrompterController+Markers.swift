import Prompter

/// Markers: the script's named ones and those the operator sets, and the jumps to them.
extension PrompterController {
    /// A previous-marker jump within this many seconds of reading past a marker goes to
    /// the one before it, as a clicker's Back should, not to the start of this one.
    package static let previousMarkerGrace = 2.0

    /// Every marker of the open script in reading order, placed in the current layout.
    package var markers: [PlacedMarker] {
        guard let script else { return [] }
        let set: [ScriptMarker] = markerStore?.markers(for: script.id, in: script.text) ?? unsavedMarkers[script.id] ?? []
        let all = (script.markers + set).enumerated().sorted {
            ($0.element.textOffset, $0.offset) < ($1.element.textOffset, $1.offset)
        }.map(\.element)
        return all.enumerated().map { index, marker in
            PlacedMarker(number: index + 1, name: marker.name, isOperator: marker.name == nil,
                         textOffset: marker.textOffset,
                         offset: markerLayout?.offsetOfText(marker.textOffset) ?? 0)
        }
    }

    /// Glides to a marker (or the start), keeping playing or paused; returns it (nil for the start).
    @discardableResult
    package func jump(to target: MarkerTarget, at t: Double) throws(MarkerError) -> PlacedMarker? {
        guard script != nil else { throw .noScript }
        if target == .start {
            change { $0.jump(to: 0, at: t) }
            followDriver?.moved(toOffset: 0, at: t)
            KioskLog.info("jumped to the start")
            return nil
        }
        let all = markers
        guard !all.isEmpty else { throw .noMarkers }
        // Where reading is going: a jump under way counts as arrived, so two quick
        // presses go two markers on.
        let here = engine.positionIgnoringGlide(at: t)
        let marker: PlacedMarker
        switch target {
        case .start: return nil
        case .next:
            guard let found = all.first(where: { $0.offset > here + 0.5 }) else { throw .noNext }
            marker = found
        case .previous:
            let grace = Double(engine.speed) * Self.previousMarkerGrace
            guard let found = all.last(where: { $0.offset < here - grace }) else { throw .noPrevious }
            marker = found
        case let .number(number):
            guard all.indices.contains(number - 1) else { throw .noNumber(number, count: all.count) }
            marker = all[number - 1]
        case let .name(name):
            let wanted = name.lowercased()
            guard let found = all.first(where: { $0.name?.lowercased() == wanted })
                ?? all.first(where: { $0.name?.lowercased().hasPrefix(wanted) == true }) else { throw .noName(name) }
            marker = found
        }
        change { $0.jump(to: marker.offset, at: t) }
        followDriver?.moved(toOffset: marker.offset, at: t)
        KioskLog.info("jumped to \(marker.label)")
        return marker
    }

    /// Sets an unnamed marker at the line on the reading line, kept for this script.
    @discardableResult
    package func setMarker(at t: Double) throws(MarkerError) -> PlacedMarker {
        guard let script else { throw .noScript }
        let textOffset = markerLayout?.textAtOffset(engine.positionIgnoringGlide(at: t)) ?? 0
        defer { onChange() }
        if let markerStore {
            do {
                try markerStore.add(scriptID: script.id, textOffset: textOffset, readingText: script.text)
            } catch {
                throw .cannotSave(error.description)
            }
        } else if !(unsavedMarkers[script.id] ?? []).contains(where: { $0.textOffset == textOffset }) {
            unsavedMarkers[script.id, default: []].append(ScriptMarker(name: nil, textOffset: textOffset))
        }
        KioskLog.info("marker set in \(script.id) at text offset \(textOffset)")
        return markers.first { $0.isOperator && $0.textOffset == textOffset }
            ?? PlacedMarker(number: 0, name: nil, isOperator: true, textOffset: textOffset, offset: 0)
    }

    /// Forgets the operator's markers of the open script (its named ones stay).
    package func clearSetMarkers() throws(MarkerError) {
        guard let script else { throw .noScript }
        unsavedMarkers[script.id] = nil
        do {
            try markerStore?.clear(scriptID: script.id)
        } catch {
            throw .cannotSave(error.description)
        }
        onChange()
    }
}

extension PrompterController {
    /// The end of the text reached the reading line while playing: loop round, or stop
    /// there (and blank the talent's display when the setting says so).
    package func reachedEnd(at t: Double) {
        change { $0.commit(at: t) }
        if settings.endOfScript == .blank, engine.isEnded(at: t) {
            setBlanked(true)
        }
    }
}
