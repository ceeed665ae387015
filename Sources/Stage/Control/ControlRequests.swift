import Foundation
import Media
import Prompter

/// The control requests (the socket's, the remote's, a console button's) applied to
/// the stage like a key press, after what refuses them now: a self-test holding the
/// displays, the open game, a hand controller steering the speed.
struct ControlRequests {
    private let stage: RigStage
    private let controller: PrompterController

    init(stage: RigStage) {
        self.stage = stage
        controller = stage.controller
    }

    private var library: LibraryRequests { LibraryRequests(controller: controller, console: stage.console) }

    /// Applies `request` at `time`: a key's is when it was pressed.
    func apply(_ request: ControlRequest, at time: Double) -> ControlReply {
        // The cards hide the text: it would move unseen, and the talent come back elsewhere.
        if stage.selfTests.isRunning, request.movesThePrompter {
            return .failure("a self-test holds the displays (Escape at the console stops it)")
        }
        if stage.game.isOpen, request.movesThePrompter {
            return .failure("the game is open; the prompter does not run meanwhile (rig ctl game leave)")
        }
        if let holder = controller.speedHeldBy, request.setsTheSpeed {
            return .failure("\(holder) is steering the speed; it is free again once the control is back at rest")
        }
        // A follower's own operator moving the text takes it over from the lead.
        if request.takesOverFromLead { stage.followerRig?.operatorMoved() }
        switch request {
        case .clock: return .success(["wall_time": .number(stage.wallClock().timeIntervalSince1970)])
        case .scriptText: return library.scriptText()
        case let .followRig(local):
            guard let followerRig = stage.followerRig else {
                return .failure("this rig follows no lead: [follow_rig] leader in rig.toml makes it a follower")
            }
            return followerRig.request(local: local)
        case .status: return ControlReply(body: stage.status(at: time))
        case .console:
            let targets = stage.console.targets.all.map { target -> JSONValue in
                ["id": .string(target.id), "x": .int(target.rect.x), "y": .int(target.rect.y),
                 "width": .int(target.rect.width), "height": .int(target.rect.height)]
            }
            return .success(["screen": .string(stage.console.state.screen.rawValue), "focus": .optional(stage.console.state.focus),
                             "targets": .array(targets)])
        case .hang: return stage.devices.hang()
        case let .speak(text): return speak(text)
        case let .record(start): return stage.takes.record(start: start)
        case let .clips(action, id, to): return stage.clips.request(action: action, id: id, to: to)
        case let .media(action, name): return stage.clips.media(action: action, name: name)
        case let .key(action): perform(action, at: time)
        case let .follow(on): return stage.follow.request(on: on)
        case let .listen(path): return stage.follow.listen(path: path)
        case let .game(json): return stage.gameDesk.handle(json)
        case let .remote(action, id):
            guard let remoteAccess = stage.remoteAccess else {
                return .failure("the network remote is off: [remote] enabled = true in rig.toml turns it on")
            }
            return remoteAccess.request(action: action, id: id)
        case let .marker(action, to): return MarkerRequests(controller: controller).request(action: action, to: to, at: time)
        case let .selfTest(start, touchSeconds):
            guard start else {
                let report = stage.selfTests.run?.report ?? stage.selfTests.last
                return .success(["selftest": report?.json ?? .null])
            }
            var options = SelfTestRun.Options()
            if let touchSeconds { options.touchSeconds = touchSeconds }
            if let refusal = stage.startSelfTest(options) { return .failure(refusal) }
            return .success(["selftest": stage.selfTests.run?.report.json ?? .null])
        case let .wordsPerMinute(wpm):
            do {
                let speed = try controller.setWordsPerMinute(wpm, at: time)
                return .success(["speed": .int(speed)])
            } catch {
                return .failure(error.description)
            }
        case let .finish(text):
            guard let text else {
                controller.clearTarget()
                return .success()
            }
            guard let seconds = FinishTarget.seconds(from: text) else {
                return .failure("finish takes a duration such as 4:30, 1:02:00 or 90 (seconds), found \"\(text)\"")
            }
            do {
                let speed = try controller.finish(in: seconds, at: time)
                return .success(["speed": .int(speed)])
            } catch {
                return .failure(error.description)
            }
        case .play: controller.play(at: time)
        case .pause: controller.pause(at: time)
        case .toggle: controller.togglePlayPause(at: time)
        case .stop: controller.stop(at: time)
        case .faster: controller.faster(at: time)
        case .slower: controller.slower(at: time)
        case let .speed(value): controller.setSpeed(value, at: time)
        case let .open(path):
            do {
                try controller.open(id: path, at: time)
            } catch {
                return .failure(error.description)
            }
        case let .outer(on): stage.setOuterEnabled(on)
        case let .blank(on): controller.setBlanked(on)
        case let .set(key, value):
            var settings = controller.settings
            guard let parser = stage.readingSettingParser else { return .failure("\(key) cannot be set here") }
            if let message = parser(key, value, &settings) { return .failure(message) }
            if settings.speed != controller.engine.speed { controller.setSpeed(settings.speed, at: time) }
            controller.updateSettings { $0 = settings }
        case let .scripts(search): return library.scripts(search: search)
        case .folders, .renameFolder, .deleteFolder: return library.folders(request)
        case let .mode(name):
            guard let mode = PrompterController.Mode(rawValue: name) else {
                return .failure("mode must be prompter, framing or library, found \"\(name)\"")
            }
            stage.leaveGame()
            controller.setMode(mode)
        case let .cue(letter):
            stage.stageCamera.overlay.cue = letter?.first
            stage.frameWanted(.outer)
        }
        return .success()
    }

    /// What a bound key does: takes and voice follow are the stage's, the rest the prompter's.
    private func perform(_ action: KeyAction, at time: Double) {
        switch action {
        case .record: stage.takes.toggle()
        case .follow: stage.follow.toggle()
        case .followRig:
            guard let followerRig = stage.followerRig else { return KioskLog.info("follow_rig key: this rig follows no lead") }
            _ = followerRig.request(local: followerRig.state != .local)
        default: controller.perform(action, at: time)
        }
    }

    /// `rig ctl speak`: synthesized on the speech thread, played when ready. The reply
    /// comes at once with the generation id that `status` reports under `audio`.
    private func speak(_ text: String) -> ControlReply {
        if let reason = stage.sound.unavailableReason { return .failure(reason) }
        do {
            _ = try SpeechText(text)
        } catch {
            return .failure(error.description)
        }
        let generation = stage.sound.newGeneration()
        stage.sound.speak(text, generation: generation) { report in
            if case let .failed(reason) = report { KioskLog.warning("speech \(generation) did not play: \(reason)") }
        }
        return .success(["generation": .int(generation)])
    }
}
