import Prompter

/// What the operator's keys, clickers and pedals do to the prompter, through the
/// controller's own operations. The stage's keys (takes, voice follow, the follower
/// rig) are `ControlRequests`'.
package enum PrompterKeys {
    /// Font size steps for `+` and `-`: small enough to fine-tune, big enough to
    /// cross the 20-120 range in a few presses.
    package static let fontStep = 4

    static func perform(_ action: KeyAction, on controller: PrompterController, at t: Double) {
        switch action {
        case .playPause: controller.togglePlayPause(at: t)
        case .faster: controller.faster(at: t)
        case .slower: controller.slower(at: t)
        case .stop: controller.stop(at: t)
        case .library:
            controller.pause(at: t)
            controller.setMode(.library)
        case .blank: controller.setBlanked(!controller.blanked)
        case .fontLarger: controller.updateSettings { $0.fontSize += Self.fontStep }
        case .fontSmaller: controller.updateSettings { $0.fontSize -= Self.fontStep }
        case .mirror: controller.updateSettings { $0.mirror.toggle() }
        case .flip: controller.updateSettings { $0.flip.toggle() }
        case .rotate: controller.updateSettings { $0.rotation = $0.rotation.next }
        case .nextMarker, .previousMarker, .toStart:
            let target: MarkerTarget = action == .nextMarker ? .next : action == .previousMarker ? .previous : .start
            do {
                try controller.jump(to: target, at: t)
            } catch {
                // No marker there: the text stays put, which is what the operator sees.
                KioskLog.info("\(action.rawValue): \(error)")
            }
        case .setMarker:
            do {
                try controller.setMarker(at: t)
            } catch {
                controller.addProblem("set marker: \(error)")
            }
        case .record, .follow, .followRig:
            // The stage's own: its takes and its voice follow (ControlRequests' perform).
            break
        }
    }
}
