import Foundation
import Media
import Prompter

/// The control socket's requests, applied like a key press, and the status report.
extension RigStage {
    /// Applies a request at the stage's time: the socket's, the remote's, a console button's.
    @discardableResult
    package func handle(_ request: ControlRequest) -> ControlReply {
        handle(request, at: now())
    }

    /// Applies a request at `time`: a key's is when it was pressed.
    @discardableResult
    func handle(_ request: ControlRequest, at time: Double) -> ControlReply {
        // The cards hide the text: it would move unseen, and the talent come back elsewhere.
        if selfTests.isRunning, request.movesThePrompter {
            return .failure("a self-test holds the displays (Escape at the console stops it)")
        }
        if game.isOpen, request.movesThePrompter {
            return .failure("the game is open; the prompter does not run meanwhile (rig ctl game leave)")
        }
        if let holder = controller.speedHeldBy, request.setsTheSpeed {
            return .failure("\(holder) is steering the speed; it is free again once the control is back at rest")
        }
        // A follower's own operator moving the text takes it over from the lead.
        if request.takesOverFromLead { followerRig?.operatorMoved() }
        switch request {
        case .clock: return .success(["wall_time": .number(wallClock().timeIntervalSince1970)])
        case .scriptText: return scriptText()
        case let .followRig(local):
            guard let followerRig else {
                return .failure("this rig follows no lead: [follow_rig] leader in rig.toml makes it a follower")
            }
            return followerRig.request(local: local)
        case .status: return ControlReply(body: status(at: time))
        case .console:
            let targets = console.targets.all.map { target -> JSONValue in
                ["id": .string(target.id), "x": .int(target.rect.x), "y": .int(target.rect.y),
                 "width": .int(target.rect.width), "height": .int(target.rect.height)]
            }
            return .success(["screen": .string(console.state.screen.rawValue), "focus": .optional(console.state.focus),
                             "targets": .array(targets)])
        case .hang: return devices.hang()
        case let .speak(text): return speak(text)
        case let .record(start): return takes.record(start: start)
        case let .clips(action, id, to): return clips.request(action: action, id: id, to: to)
        case let .media(action, name): return clips.media(action: action, name: name)
        case let .key(action): perform(action, at: time)
        case let .follow(on): return follow.request(on: on)
        case let .listen(path): return follow.listen(path: path)
        case let .game(json): return gameDesk.handle(json)
        case let .remote(action, id):
            guard let remoteAccess else {
                return .failure("the network remote is off: [remote] enabled = true in rig.toml turns it on")
            }
            return remoteAccess.request(action: action, id: id)
        case let .marker(action, to): return marker(action: action, to: to, at: time)
        case let .selfTest(start, touchSeconds):
            guard start else {
                let report = selfTests.run?.report ?? selfTests.last
                return .success(["selftest": report?.json ?? .null])
            }
            var options = SelfTestRun.Options()
            if let touchSeconds { options.touchSeconds = touchSeconds }
            if let refusal = startSelfTest(options) { return .failure(refusal) }
            return .success(["selftest": selfTests.run?.report.json ?? .null])
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
        case let .outer(on): setOuterEnabled(on)
        case let .blank(on): controller.setBlanked(on)
        case let .set(key, value):
            var settings = controller.settings
            guard let parser = readingSettingParser else { return .failure("\(key) cannot be set here") }
            if let message = parser(key, value, &settings) { return .failure(message) }
            if settings.speed != controller.engine.speed { controller.setSpeed(settings.speed, at: time) }
            controller.updateSettings { $0 = settings }
        case let .scripts(search): return scripts(search: search)
        case .folders, .renameFolder, .deleteFolder: return folders(request)
        case let .mode(name):
            guard let mode = PrompterController.Mode(rawValue: name) else {
                return .failure("mode must be prompter, framing or library, found \"\(name)\"")
            }
            leaveGame()
            controller.setMode(mode)
        case let .cue(letter):
            stageCamera.overlay.cue = letter?.first
            frameWanted(.outer)
        }
        return .success()
    }

    /// What a bound key does: takes and voice follow are the stage's, the rest the prompter's.
    private func perform(_ action: KeyAction, at time: Double) {
        switch action {
        case .record: takes.toggle()
        case .follow: follow.toggle()
        case .followRig:
            guard let followerRig else { return KioskLog.info("follow_rig key: this rig follows no lead") }
            _ = followerRig.request(local: followerRig.state != .local)
        default: controller.perform(action, at: time)
        }
    }

    /// Folder requests act through the controller, as the console's dialogs do, so the
    /// open script follows its file.
    private func folders(_ request: ControlRequest) -> ControlReply {
        guard let library = controller.library else { return .failure("the scripts folder is unavailable") }
        do {
            switch request {
            case let .renameFolder(name, to):
                let renamed = try controller.renameFolder(name, to: to)
                console.libraryChanged()
                return .success(["folder": .string(renamed)])
            case let .deleteFolder(name):
                let moved = try controller.deleteFolder(name)
                console.libraryChanged()
                return .success(["moved": .array(moved.map { ["from": .string($0.oldID), "to": .string($0.entry.id)] })])
            default:
                let folders: [JSONValue] = library.folders().map { name in
                    ["name": .string(name), "scripts": .int(controller.scriptCount(inFolder: name))]
                }
                return .success(["folders": .array(folders)])
            }
        } catch {
            return .failure(error.description)
        }
    }

    private func scripts(search: String?) -> ControlReply {
        guard let library = controller.library else { return .failure("the scripts folder is unavailable") }
        let entries = search.map { library.search($0) } ?? library.scripts()
        let items: [JSONValue] = entries.map { entry in
            [
                "id": .string(entry.id),
                "title": .string(entry.title),
                "folder": .optional(entry.folder),
                "modified": .string(TimeText.iso8601(entry.modified)),
                "words": .int(entry.wordCount),
                "reading_time": .string(ReadingTime.label(words: entry.wordCount, wordsPerMinute: controller.wordsPerMinute)),
                "problem": .optional(entry.condition.message),
                "imported_from": .optional(entry.importedFrom?.rawValue),
            ]
        }
        // Files found but not readable (binary, too large, an import converting or
        // without its converter), so a script that does not show says why.
        let skipped: [JSONValue] = library.skipped.map { entry in
            ["id": .string(entry.id), "problem": .optional(entry.condition.message)]
        }
        return .success(["scripts": .array(items), "folders": .array(library.folders().map { .string($0) }),
                         "not_listed": .array(skipped)])
    }

    /// `script_text`: the open script's source as read here, with the reading options,
    /// so a follower rig makes the same reading text (checked by the hash). Read again
    /// from the library; a file changed since it was shown is "ask again".
    private func scriptText() -> ControlReply {
        guard let open = controller.script, let hash = controller.scriptHash else { return .failure("no script is open") }
        guard let library = controller.library else { return .failure("\(open.id) is not in a scripts folder") }
        do {
            let text = try library.readScript(id: open.id)
            guard SHA256.hex(text.readingText) == hash else {
                return .failure("\(open.id) changed since it was shown: ask again")
            }
            return .success(["id": .string(open.id), "title": .string(open.title), "format": .string(text.format.rawValue),
                             "line_breaks": .string(library.lineBreaks.rawValue),
                             "directions": .string(library.directions.rawValue), "source": .string(text.source),
                             "script_hash": .string(hash)])
        } catch {
            return .failure("\(open.id): \(error)")
        }
    }

    /// `rig ctl status` at `time`. The devices' own facts come from the kiosk: the
    /// displays as the backend reports them now (flip counts change every frame), the
    /// camera capture's fields (nil without a capture) and the input side's.
    /// `rig ctl status`: the stage's state with what the devices report of themselves.
    package func status(at time: Double) -> JSONValue {
        guard case var .object(fields) = status(at: time, displays: devices.displays, camera: devices.camera,
                                                cameraDevice: devices.cameraDevice, input: devices.input)
        else { return .null }
        fields.merge(devices.sections) { $1 }
        return .object(fields)
    }

    /// `rig ctl speak`: synthesized on the speech thread, played when ready. The reply
    /// comes at once with the generation id that `status` reports under `audio`.
    private func speak(_ text: String) -> ControlReply {
        if let reason = sound.unavailableReason { return .failure(reason) }
        do {
            _ = try SpeechText(text)
        } catch {
            return .failure(error.description)
        }
        let generation = sound.newGeneration()
        sound.speak(text, generation: generation) { report in
            if case let .failed(reason) = report { KioskLog.warning("speech \(generation) did not play: \(reason)") }
        }
        return .success(["generation": .int(generation)])
    }

    package func status(at time: Double, displays: [DisplayRole: DisplayStatus], camera cameraFields: [String: JSONValue]?,
                cameraDevice: String, input: [String: JSONValue]) -> JSONValue {
        var inputStatus = input
        inputStatus["taps"] = .int(controller.taps)
        inputStatus["controllers"] = handControllers.status
        let camera: JSONValue
        if var fields = cameraFields {
            fields["thumbnail"] = (inFlight[.inner] ?? shown[.inner])?.thumbnail.map { rect in
                ["x": .int(rect.x), "y": .int(rect.y), "width": .int(rect.width), "height": .int(rect.height)]
            } ?? .null
            camera = .object(fields)
        } else {
            camera = ["device": .string(cameraDevice), "state": settings.cameraEnabled ? "unavailable" : "disabled"]
        }
        let report = StatusReport(controller: controller, displays: displays, camera: camera, input: .object(inputStatus),
                                  latency: ["tap_to_flip": tapLatency.summary.json,
                                            "controller_to_flip": handControllers.latency.summary.json], time: time,
                                  console: console.statusJSON).json
        guard case var .object(fields) = report else { return report }
        fields["game"] = gameDesk.status
        if case var .object(prompter) = fields["prompter"] {
            prompter["markers"] = markersJSON
            // The script word on the reading line, numbered as saved positions and voice
            // follow number them (from 0).
            prompter["word"] = controller.script == nil ? .null
                : renderer.wordIndex(atOffset: controller.engine.offset(at: time)).map { .int($0) } ?? .null
            // The same place for another rig's layout, with the time and the text's hash.
            // A jump's glide counts as arrived: a follower glides there itself.
            if let layout = renderer.readingText?.layout, let hash = controller.scriptHash {
                let anchor = ReadingAnchor(layout: layout, offset: controller.engine.positionIgnoringGlide(at: time),
                                           motion: controller.engine.motion(at: time))
                // The wall time of `time`, not of this line: a status built late (a busy
                // loop, a slow debug build) would otherwise place the lead behind itself by
                // the delay's worth of its motion, and every follower would chase that.
                let wallTime = wallClock().timeIntervalSince1970 - (now() - time)
                prompter["anchor"] = anchor.json(wallTime: wallTime, scriptHash: hash)
            } else {
                prompter["anchor"] = .null
            }
            prompter.merge(prompting(at: time)) { $1 }
            fields["prompter"] = .object(prompter)
        }
        fields["clips"] = clips.status
        fields["recording"] = takes.status
        fields["follow"] = follow.status
        fields["follow_rig"] = followerRig?.status ?? .null
        return .object(fields)
    }
}

extension ControlRequest {
    /// Requests by which a follower's own operator moves the text: they take it over.
    var takesOverFromLead: Bool {
        switch self {
        case .play, .pause, .toggle, .stop, .faster, .slower, .speed, .open, .wordsPerMinute, .finish: true
        case let .marker(action, _): action == "jump"
        case let .key(action): [.playPause, .faster, .slower, .stop, .nextMarker, .previousMarker, .toStart].contains(action)
        default: false
        }
    }

    /// Requests that would start or move the prompter's text.
    var movesThePrompter: Bool {
        switch self {
        case .play, .toggle, .faster, .slower, .speed, .open, .wordsPerMinute, .finish, .key: true
        case let .marker(action, _): action == "jump"

        default: false
        }
    }

    /// Requests that set the speed, refused while a hand controller steers it.
    var setsTheSpeed: Bool {
        switch self {
        case .faster, .slower, .speed, .wordsPerMinute, .finish: true
        default: false
        }
    }
}
