import Prompter

/// What the operator's keys, clickers and pedals do.
extension PrompterController {
    /// Font size steps for `+` and `-`: small enough to fine-tune, big enough to
    /// cross the 20-120 range in a few presses.
    package static let fontStep = 4

    package func perform(_ action: KeyAction, at t: Double) {
        switch action {
        case .playPause: togglePlayPause(at: t)
        case .faster: faster(at: t)
        case .slower: slower(at: t)
        case .stop: stop(at: t)
        case .library:
            pause(at: t)
            setMode(.library)
        case .blank: setBlanked(!blanked)
        case .fontLarger: updateSettings { $0.fontSize += Self.fontStep }
        case .fontSmaller: updateSettings { $0.fontSize -= Self.fontStep }
        case .mirror: updateSettings { $0.mirror.toggle() }
        case .flip: updateSettings { $0.flip.toggle() }
        case .rotate: updateSettings { $0.rotation = $0.rotation.next }
        case .nextMarker, .previousMarker, .toStart:
            let target: MarkerTarget = action == .nextMarker ? .next : action == .previousMarker ? .previous : .start
            do {
                try jump(to: target, at: t)
            } catch {
                // No marker there: the text stays put, which is what the operator sees.
                KioskLog.info("\(action.rawValue): \(error)")
            }
        case .setMarker:
            do {
                try setMarker(at: t)
            } catch {
                addProblem("set marker: \(error)")
            }
        case .record, .follow, .followRig:
            // The stage's own: its takes and its voice follow (RigStage's perform).
            break
        }
    }
}

extension TextRotation {
    /// The R key's cycle: 0, 90, 180, 270, 0.
    package var next: TextRotation {
        switch self {
        case .none: .quarter
        case .quarter: .half
        case .half: .threeQuarters
        case .threeQuarters: .none
        }
    }
}
