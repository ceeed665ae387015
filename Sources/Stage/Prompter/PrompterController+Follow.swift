import Prompter

/// Voice follow's needs from the controller: where each script word sits in the current
/// layout, a way to let `FollowDriver` steer the engine, and what the operator's keys
/// and the talent's tap mean while it does (the transport calls in PrompterController).
extension PrompterController {
    /// The engine offset that brings each word (by its scalar offset in the reading
    /// text) to the reading line; nil before a layout exists.
    package func followOffsets(ofScalars scalars: [Int]) -> [Double]? {
        guard let layout = markerLayout, layout.wordsPerPixel() != nil else { return nil }
        return scalars.map(layout.offsetOfText)
    }

    /// The layout line of each such offset (they are line tops), nil before a layout.
    package func followLines(ofOffsets offsets: [Double]) -> [Int]? {
        guard let layout = markerLayout else { return nil }
        var lines: [Int] = []
        for offset in offsets {
            guard let line = layout.lineIndex(offset + 0.5) else { return nil }
            lines.append(line)
        }
        return lines
    }

    /// Lets `followDriver` steer the engine at t, handing back at the operator's latest
    /// speed. Only a real change goes through `change`, so a tap's badge stays while
    /// follow leaves an operator's pause alone.
    package func driveFollow(at t: Double) {
        guard var driver = followDriver else { return }
        driver.fixedSpeed = settings.speed
        var steered = engine
        driver.drive(&steered, at: t)
        followDriver = driver
        guard steered != engine else { return }
        change { $0 = steered }
    }

    /// Follow has paused the text itself (the talent stopped speaking).
    func followHolding(at t: Double) -> Bool {
        followDriver?.isHolding == true && engine.state(at: t) == .paused
    }

    /// The operator played the text again: follow starts from the reading line.
    func followResumed(at t: Double) {
        followDriver?.resumed(atOffset: engine.positionIgnoringGlide(at: t), at: t)
    }

    /// A speed key while follow steers moves the reading line `steps` half lines ahead of
    /// (+) or behind (-) the voice, and the speed stays follow's; true when follow took it.
    /// During follow's hold the step shows at once, as a glide.
    func nudgeFollowLead(_ steps: Int, at t: Double) -> Bool {
        guard var driver = followDriver, driver.isSteering else { return false }
        let before = driver.lead
        driver.nudgeLead(by: steps)
        followDriver = driver
        guard driver.lead != before else { return true }
        KioskLog.info("voice follow: the reading line \(driver.lead) lines ahead of the voice")
        if followHolding(at: t) {
            let step = (driver.lead - before) * driver.lineHeight
            change { $0.jump(to: $0.positionIgnoringGlide(at: t) + step, at: t) }
        } else {
            onChange()
        }
        return true
    }
}
