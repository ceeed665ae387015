import Foundation
import Prompter
import Render

/// A follower rig's side of "several rigs, one script": it shows the lead's script with
/// this rig's own reading settings and keeps the lead's reading line on its own, from the
/// lead's anchors (`LeadLinkReport`, from the kiosk's link thread). It owns the state the
/// operator sees (`following`, `holding`, `local`, `lost`), the banner's lines about the
/// lead, and its hand on the engine (`LeadPursuit`) on the stage's thread.
package final class FollowerRig {
    package struct Settings: Equatable, Sendable {
        /// The lead's remote, `http://ADDRESS:PORT`.
        package var leader: String
        package var whenLost: WhenLost = .pause

        package init(leader: String, whenLost: WhenLost = .pause) {
            self.leader = leader
            self.whenLost = whenLost
        }
    }

    /// What the text does while the lead cannot be reached.
    package enum WhenLost: String, Sendable, CaseIterable {
        /// Eases out and holds its place until the lead is back.
        case pause
        /// Goes on at the lead's last speed, as a talent mid-sentence would want.
        case `continue`
    }

    package enum State: String, Sendable {
        /// On the lead's reading line.
        case following
        /// The lead is there but there is nothing to follow yet: no script open on the
        /// lead, or its text still on its way.
        case holding
        /// This rig's operator has taken over; the lead is not followed until handed back.
        case local
        /// The lead cannot be reached.
        case lost
    }

    /// Clock differences above this, beyond the measure's own uncertainty (half its round
    /// trip), are said on the banner (both rigs should run chrony).
    package static let clockLimit = 0.010
    /// Steering between anchors while following (they come ten times a second).
    static let steerInterval = 0.05

    package let settings: Settings
    package private(set) var state: State = .lost
    private var why = "connecting"
    private var lead: LeadState?
    /// The lead answers now (its stream is open and its states arrive).
    private var reachable = false
    private var anchorArrived: Double?
    /// The lead's wall clock minus this rig's, from the best recent round trip.
    package private(set) var clockOffset: Double?
    private var roundTrip: Double?
    private var pursuit = LeadPursuit()
    /// The script whose text is being asked for (or was, and failed), by hash.
    private var fetching: String?
    /// When asking for it last failed: asked again after `refetchAfter`, not on every state.
    private var fetchFailed: Double?
    static let refetchAfter = 5.0
    private var scriptProblem: String?
    private var ticking = false
    /// The lead's blank as last applied here: a change of the lead's is followed, and an
    /// operator's own blank here stays until the lead's changes.
    private var leadBlank: Bool?
    private var shownProblems: [String]?

    private let controller: PrompterController
    private let problems: ProblemBoard
    private let now: () -> Double
    private let wallClock: () -> Double
    private let schedule: (Double, @escaping () -> Void) -> Void
    /// This rig's layout of the open text (the stage's renderer).
    var layout: () -> TextLayout? = { nil }
    /// Asks the link for the lead's script (the kiosk's `LeadLink`).
    package var fetchScript: () -> Void = {}
    var onChange: () -> Void = {}

    init(settings: Settings, controller: PrompterController, problems: ProblemBoard, now: @escaping () -> Double,
         wallClock: @escaping () -> Double, schedule: @escaping (Double, @escaping () -> Void) -> Void) {
        self.settings = settings
        self.controller = controller
        self.problems = problems
        self.now = now
        self.wallClock = wallClock
        self.schedule = schedule
        showProblems()
    }

    // MARK: reports

    package func received(_ report: LeadLinkReport) {
        let t = now()
        let before = state
        switch report {
        case let .state(state):
            let wasLost = self.state == .lost
            lead = state
            reachable = true
            anchorArrived = t
            if wasLost {
                KioskLog.notice("follow rig: the lead \(settings.leader) is back")
                pursuit.catchingUp = true
                self.state = .holding
            }
            apply(at: t)
        case let .script(script):
            fetching = nil
            fetchFailed = nil
            scriptProblem = nil
            guard script.hash == lead?.anchor?.scriptHash, state != .local else { break }
            controller.openText(OpenScript(
                id: script.id, title: script.title, text: script.readingText, wordCount: script.wordCount, repaired: false,
                markers: script.markers, markup: script.markup), at: t)
            KioskLog.notice("follow rig: showing the lead's \(script.id) (\(script.wordCount) words)")
            apply(at: t)
        case let .scriptProblem(reason):
            fetchFailed = t
            scriptProblem = reason
            KioskLog.warning("follow rig: \(reason)")
        case let .clock(offset, trip):
            clockOffset = offset
            roundTrip = trip
        case let .lost(reason):
            guard state != .lost || why != reason else { break }
            let wasFollowing = state == .following
            why = reason
            fetching = nil
            reachable = false
            if state != .local {
                state = .lost
                KioskLog.warning("follow rig: lead lost (\(reason))")
                if wasFollowing, settings.whenLost == .pause { controller.change { $0.pause(at: t) } }
            }
        }
        // Ten states a second while the lead plays: only a change the operator sees
        // redraws the console (the steering redraws the text itself).
        if showProblems() || state != before { onChange() }
    }

    /// Acts on the lead's latest state at t: the script, blank, and the place.
    private func apply(at t: Double) {
        guard state != .local, state != .lost, let lead else { return }
        guard let anchor = lead.anchor else {
            state = .holding
            why = "the lead has no script open"
            return
        }
        if leadBlank != lead.blanked {
            leadBlank = lead.blanked
            controller.setBlanked(lead.blanked)
        }
        guard controller.scriptHash == anchor.scriptHash else {
            state = .holding
            why = "fetching the lead's script"
            if fetching != anchor.scriptHash || fetchFailed.map({ t - $0 > Self.refetchAfter }) == true {
                fetching = anchor.scriptHash
                fetchFailed = nil
                fetchScript()
            }
            return
        }
        if state != .following {
            KioskLog.info("follow rig: following \(settings.leader)")
            pursuit.catchingUp = true
        }
        state = .following
        steer(at: t)
        scheduleTick()
    }

    /// Where the lead's anchor puts this rig's reading line at stage time t, and how the
    /// lead moves from there, in this layout's px.
    private func target(at t: Double) -> LeadPlace? {
        guard let anchor = lead?.anchor, let layout = layout() else { return nil }
        // The system's clock, kept by chrony: the measured offset is only checked (a round
        // trip's asymmetry makes it uncertain by half the trip, which would move the text).
        let leadNow = wallClock() + (t - now())
        return anchor.anchor.place(in: layout, after: leadNow - anchor.wallTime)
    }

    private func steer(at t: Double) {
        guard state == .following, let goal = target(at: t), let layout = layout() else { return }
        var engine = controller.engine
        let step = pursuit.steer(&engine, target: goal.offset, leadTargetRate: goal.targetRate, leadRampLeft: goal.rampLeft,
                                 leadStartsIn: goal.startsIn, lineHeight: layout.lineHeight, at: t)
        if case let .glide(distance, duration) = step {
            KioskLog.info(String(format: "follow rig: glided %.0f px to the lead's place in %.2f s", distance, duration))
        }
        controller.steer(to: engine)
    }

    private func scheduleTick() {
        guard !ticking else { return }
        ticking = true
        schedule(now() + Self.steerInterval) { [weak self] in
            guard let self else { return }
            ticking = false
            guard state == .following else { return }
            steer(at: now())
            scheduleTick()
        }
    }

    // MARK: the operator

    /// `rig ctl follow-rig local|lead`, the follow-rig key: take over here, or hand back.
    package func request(local: Bool) -> ControlReply {
        if local {
            guard state != .local else { return .success(["follow_rig": status]) }
            state = .local
            KioskLog.notice("follow rig: taken over here; the lead is not followed until handed back")
        } else {
            guard state == .local else { return .success(["follow_rig": status]) }
            state = reachable ? .holding : .lost
            pursuit.catchingUp = true
            KioskLog.notice("follow rig: handed back to the lead")
            apply(at: now())
        }
        showProblems()
        onChange()
        return .success(["follow_rig": status])
    }

    /// The operator or the talent moved the text here while it followed: that is a takeover.
    func operatorMoved() {
        guard state == .following || state == .holding else { return }
        _ = request(local: true)
    }

    // MARK: what is shown

    /// The banner's lines about the lead; true when they changed.
    @discardableResult
    private func showProblems() -> Bool {
        var lines: [String] = []
        switch state {
        case .lost: lines.append("lead lost: \(settings.leader) (\(why)); " + (settings.whenLost == .pause
            ? "holding here until it is back" : "going on at its last speed"))
        case .local: lines.append("following the lead is off: taken over here (the follow-rig key hands back)")
        case .holding, .following: break
        }
        if let scriptProblem { lines.append("lead's script: \(scriptProblem)") }
        if let clockOffset, abs(clockOffset) - (roundTrip ?? 0) / 2 > Self.clockLimit {
            lines.append(String(format: "this rig's clock is %.0f ms off the lead's: keep both with chrony (README)",
                                clockOffset * 1000))
        }
        guard lines != shownProblems else { return false }
        shownProblems = lines
        problems.set(lines, for: .followRig)
        return true
    }

    /// `follow_rig` in the status.
    package var status: JSONValue {
        let t = now()
        var fields: [String: JSONValue] = [
            "leader": .string(settings.leader), "state": .string(state.rawValue), "when_lost": .string(settings.whenLost.rawValue),
            "clock_offset_ms": clockOffset.map { .number(($0 * 10_000).rounded() / 10) } ?? .null,
            "round_trip_ms": roundTrip.map { .number(($0 * 10_000).rounded() / 10) } ?? .null,
            "anchor_age_ms": anchorArrived.map { .number(((t - $0) * 10_000).rounded() / 10) } ?? .null,
            "offset_px": .null, "offset_words": .null,
        ]
        if state != .following { fields["reason"] = .string(why) }
        if state == .following, let goal = target(at: t), let layout = layout() {
            let here = controller.engine.offset(at: t)
            fields["offset_px"] = .number(((here - goal.offset) * 100).rounded() / 100)
            fields["offset_words"] = .int(layout.wordIndex(atY: here) - layout.wordIndex(atY: goal.offset))
            fields["lead_word"] = lead?.anchor.map { .int($0.anchor.word) } ?? .null
        }
        return .object(fields)
    }
}
