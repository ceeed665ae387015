import Foundation
import Prompter

/// The control socket's requests, applied on the event loop like a key press.
extension KioskApp {
    func handle(_ request: ControlRequest) -> ControlReply {
        let now = loop.clock()
        switch request {
        case .status: return ControlReply(body: status(at: now))
        case .play: controller.play(at: now)
        case .pause: controller.pause(at: now)
        case .toggle: controller.togglePlayPause(at: now)
        case .stop: controller.stop(at: now)
        case .faster: controller.faster(at: now)
        case .slower: controller.slower(at: now)
        case let .speed(value): controller.setSpeed(value, at: now)
        case let .open(path):
            do {
                try controller.open(id: path, at: now)
            } catch {
                return .failure(error.description)
            }
        case let .outer(on): setOuterEnabled(on)
        case let .blank(on): controller.setBlanked(on)
        case let .set(key, value):
            var settings = controller.settings
            if let message = ReadingSettingKeys.apply(key: key, value: value, to: &settings) {
                return .failure(message)
            }
            if settings.speed != controller.engine.speed { controller.setSpeed(settings.speed, at: now) }
            controller.updateSettings { $0 = settings }
        case let .scripts(search): return scripts(search: search)
        case let .mode(name):
            guard let mode = PrompterController.Mode(rawValue: name) else {
                return .failure("mode must be prompter, framing or library, found \"\(name)\"")
            }
            controller.setMode(mode)
        case .hang:
            guard ProcessInfo.processInfo.environment["RIG_TEST_HANG_TRIGGER"] == "1" else {
                return .failure("hang is a test aid; start the kiosk with RIG_TEST_HANG_TRIGGER=1 to allow it")
            }
            KioskLog.warning("hanging the event loop on request (RIG_TEST_HANG_TRIGGER)")
            while true { pause() }
        case let .speak(text): return speak(text)
        case let .cue(letter):
            cameraOverlay.cue = letter?.first
            displaysBackend.requestFrame(.outer)
        }
        return .success()
    }

    func setOuterEnabled(_ on: Bool) {
        displaysBackend.setEnabled(on, for: .outer)
        KioskLog.info(on ? "outer display enabled by the operator" : "outer display turned off by the operator")
    }

    private func scripts(search: String?) -> ControlReply {
        guard let library = controller.library else { return .failure("the scripts folder is unavailable") }
        let entries = search.map { library.search($0) } ?? library.scripts()
        let formatter = ISO8601DateFormatter()
        let items: [JSONValue] = entries.map { entry in
            [
                "id": .string(entry.id),
                "title": .string(entry.title),
                "folder": .optional(entry.folder),
                "modified": .string(formatter.string(from: entry.modified)),
                "words": .int(entry.wordCount),
                "reading_time": .string(ReadingTime.label(words: entry.wordCount, wordsPerMinute: controller.wordsPerMinute)),
                "problem": .optional(entry.condition.message),
            ]
        }
        return .success(["scripts": .array(items), "folders": .array(library.folders().map { .string($0) })])
    }
}
