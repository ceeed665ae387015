import Prompter

/// Voice follow's hand on the engine while follow is on: the driver
/// (`VoiceFollowController` sets it and feeds it what was heard) and what it makes of
/// the engine when it steers and when the operator's keys or the talent's tap meet it.
/// It decides from the engine and returns the engine it wants; the controller applies it.
package struct FollowSteering {
    /// Nil while follow is off.
    package var driver: FollowDriver?

    /// The engine as the driver steers it at t, handing back at the operator's latest
    /// speed; nil when it changes nothing, so an operator's pause is left alone.
    mutating func steer(_ engine: PrompterEngine, operatorSpeed: Int, at t: Double) -> PrompterEngine? {
        guard var driver else { return nil }
        driver.fixedSpeed = operatorSpeed
        var steered = engine
        driver.drive(&steered, at: t)
        self.driver = driver
        return steered == engine ? nil : steered
    }

    /// Follow has paused the text itself (the talent stopped speaking).
    func isHolding(_ engine: PrompterEngine, at t: Double) -> Bool {
        driver?.isHolding == true && engine.state(at: t) == .paused
    }

    /// The operator paused (a key, the talent's tap): during follow's hold the pause is
    /// theirs now, and follow leaves it until they play again. True when follow was holding.
    @discardableResult
    mutating func takeHold(_ engine: PrompterEngine, at t: Double) -> Bool {
        guard isHolding(engine, at: t) else { return false }
        driver?.operatorPaused()
        return true
    }

    /// The operator played the text again: follow starts from the reading line.
    mutating func resumed(_ engine: PrompterEngine, at t: Double) {
        driver?.resumed(atOffset: engine.positionIgnoringGlide(at: t), at: t)
    }

    /// What a speed key came to while follow may steer.
    enum LeadNudge: Equatable {
        /// Follow does not steer: the key sets the speed as ever.
        case notSteering
        /// Follow took the key but the lead is at its end: nothing changes.
        case atLimit
        /// The lead moved; the text gets there with the voice.
        case moved
        /// The lead moved during follow's hold: the engine glides the step at once.
        case glide(PrompterEngine)
    }

    /// A speed key while follow steers moves the reading line `steps` half lines ahead of
    /// (+) or behind (-) the voice, and the speed stays follow's. During follow's hold
    /// the step shows at once, as a glide.
    mutating func nudgeLead(by steps: Int, engine: PrompterEngine, at t: Double) -> LeadNudge {
        guard var driver, driver.isSteering else { return .notSteering }
        let before = driver.lead
        driver.nudgeLead(by: steps)
        self.driver = driver
        guard driver.lead != before else { return .atLimit }
        KioskLog.info("voice follow: the reading line \(driver.lead) lines ahead of the voice")
        guard isHolding(engine, at: t) else { return .moved }
        var glided = engine
        glided.jump(to: engine.positionIgnoringGlide(at: t) + (driver.lead - before) * driver.lineHeight, at: t)
        return .glide(glided)
    }
}
