import Prompter

/// The open script's markers: its named ones (headings, `>>` lines) and those the
/// operator sets, which are kept per script in `MarkerStore` (in memory on a stage
/// that keeps nothing), placed in the outer layout; and which of them a jump goes to.
struct ReadingMarkers {
    /// A previous-marker jump within this many seconds of reading past a marker goes to
    /// the one before it, as a clicker's Back should, not to the start of this one.
    static let previousMarkerGrace = 2.0

    /// Where the operator's markers are kept; nil keeps them in `unsaved` only.
    let store: MarkerStore?
    /// Operator markers of a stage that keeps nothing, by script id.
    private var unsaved: [String: [ScriptMarker]] = [:]

    init(store: MarkerStore?) {
        self.store = store
    }

    /// Every marker of `script` in reading order, placed by `layout` (at 0 without one).
    func placed(in script: OpenScript, layout: MarkerLayout?) -> [PlacedMarker] {
        let set = store?.markers(for: script.id, in: script.text) ?? unsaved[script.id] ?? []
        let all = (script.markers + set).enumerated().sorted {
            ($0.element.textOffset, $0.offset) < ($1.element.textOffset, $1.offset)
        }.map(\.element)
        return all.enumerated().map { index, marker in
            PlacedMarker(number: index + 1, name: marker.name, isOperator: marker.name == nil,
                         textOffset: marker.textOffset, offset: layout?.offsetOfText(marker.textOffset) ?? 0)
        }
    }

    /// The marker a jump to `target` goes to in `script`, from where reading is going in
    /// `engine` at t: a jump under way counts as arrived, so two quick presses go two
    /// markers on. Nil for the start.
    func jumpTarget(_ target: MarkerTarget, in script: OpenScript, layout: MarkerLayout?,
                    engine: PrompterEngine, at t: Double) throws(MarkerError) -> PlacedMarker? {
        target == .start ? nil : try Self.pick(target, among: placed(in: script, layout: layout),
                                               from: engine.positionIgnoringGlide(at: t), speed: engine.speed)
    }

    /// Sets an unnamed marker of `script` at the line that scroll offset `offset` puts on
    /// the reading line; returns it placed by `layout`.
    mutating func set(atScrollOffset offset: Double, in script: OpenScript,
                      layout: MarkerLayout?) throws(MarkerError) -> PlacedMarker {
        let textOffset = layout?.textAtOffset(offset) ?? 0
        try set(at: textOffset, in: script)
        KioskLog.info("marker set in \(script.id) at text offset \(textOffset)")
        return placed(in: script, layout: layout).first { $0.isOperator && $0.textOffset == textOffset }
            ?? PlacedMarker(number: 0, name: nil, isOperator: true, textOffset: textOffset, offset: 0)
    }

    /// Sets an unnamed marker of `script` at a text offset (a second one there is the same).
    private mutating func set(at textOffset: Int, in script: OpenScript) throws(MarkerError) {
        guard let store else {
            if !(unsaved[script.id] ?? []).contains(where: { $0.textOffset == textOffset }) {
                unsaved[script.id, default: []].append(ScriptMarker(name: nil, textOffset: textOffset))
            }
            return
        }
        do {
            try store.add(scriptID: script.id, textOffset: textOffset, readingText: script.text)
        } catch {
            throw .cannotSave(error.description)
        }
    }

    /// Forgets the operator's markers of a script (its named ones are in its text).
    mutating func clear(scriptID: String) throws(MarkerError) {
        unsaved[scriptID] = nil
        do {
            try store?.clear(scriptID: scriptID)
        } catch {
            throw .cannotSave(error.description)
        }
    }

    /// A script renamed or moved keeps its operator's markers.
    mutating func move(from oldID: String, to newID: String) {
        unsaved[newID] = unsaved.removeValue(forKey: oldID)
        do {
            try store?.move(from: oldID, to: newID)
        } catch {
            KioskLog.error("cannot keep the markers of \(oldID): \(error)")
        }
    }

    /// The marker a jump to `target` goes to from scroll offset `here` at `speed` px/s;
    /// nil for the start, which is no marker.
    static func pick(_ target: MarkerTarget, among all: [PlacedMarker], from here: Double,
                     speed: Int) throws(MarkerError) -> PlacedMarker? {
        if target == .start { return nil }
        guard !all.isEmpty else { throw .noMarkers }
        switch target {
        case .start: return nil
        case .next:
            guard let found = all.first(where: { $0.offset > here + 0.5 }) else { throw .noNext }
            return found
        case .previous:
            let grace = Double(speed) * previousMarkerGrace
            guard let found = all.last(where: { $0.offset < here - grace }) else { throw .noPrevious }
            return found
        case let .number(number):
            guard all.indices.contains(number - 1) else { throw .noNumber(number, count: all.count) }
            return all[number - 1]
        case let .name(name):
            let wanted = name.lowercased()
            guard let found = all.first(where: { $0.name?.lowercased() == wanted })
                ?? all.first(where: { $0.name?.lowercased().hasPrefix(wanted) == true }) else { throw .noName(name) }
            return found
        }
    }
}
