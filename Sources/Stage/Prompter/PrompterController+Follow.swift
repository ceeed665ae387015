import Prompter

/// Voice follow's two needs from the controller: where each script word sits in the
/// current layout, and a way to let `FollowDriver` steer the engine.
extension PrompterController {
    /// The engine offset that brings each word (by its scalar offset in the reading
    /// text) to the reading line; nil before a layout exists.
    package func followOffsets(ofScalars scalars: [Int]) -> [Double]? {
        guard let layout = markerLayout, layout.wordsPerPixel() != nil else { return nil }
        return scalars.map(layout.offsetOfText)
    }

    /// Lets the driver steer the engine at t. Only a real change goes through `change`,
    /// so a tap's badge stays while follow leaves an operator's pause alone.
    package func drive(_ driver: inout FollowDriver, at t: Double) {
        var steered = engine
        driver.drive(&steered, at: t)
        guard steered != engine else { return }
        change { $0 = steered }
    }
}
