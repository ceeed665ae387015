import Foundation
import Prompter

/// `rig ctl status` of a stage: the prompter's `StatusReport` with what the stage's
/// other parts (the game, clips, takes, voice follow, a lead rig) say of themselves.
struct StageStatus {
    let stage: RigStage

    /// The report at `time` with the devices' own facts: the displays as the backend
    /// reports them now, the camera capture's fields (nil without a capture) and the
    /// input side's.
    func json(at time: Double, displays: [DisplayRole: DisplayStatus], camera cameraFields: [String: JSONValue]?,
              cameraDevice: String, input: [String: JSONValue]) -> JSONValue {
        let controller = stage.controller
        var inputStatus = input
        inputStatus["taps"] = .int(controller.taps)
        inputStatus["controllers"] = stage.handControllers.status
        let camera: JSONValue
        if var fields = cameraFields {
            fields["thumbnail"] = (stage.inFlight[.inner] ?? stage.shown[.inner])?.thumbnail.map { rect in
                ["x": .int(rect.x), "y": .int(rect.y), "width": .int(rect.width), "height": .int(rect.height)]
            } ?? .null
            camera = .object(fields)
        } else {
            camera = ["device": .string(cameraDevice), "state": stage.settings.cameraEnabled ? "unavailable" : "disabled"]
        }
        let report = StatusReport(controller: controller, displays: displays, camera: camera, input: .object(inputStatus),
                                  latency: ["tap_to_flip": stage.tapLatency.summary.json,
                                            "controller_to_flip": stage.handControllers.latency.summary.json], time: time,
                                  console: stage.console.state.statusJSON).json
        guard case var .object(fields) = report else { return report }
        fields["game"] = stage.gameDesk.status
        if case var .object(prompter) = fields["prompter"] {
            prompter["markers"] = MarkerRequests(controller: controller).markersJSON
            // The script word on the reading line, numbered as saved positions and voice
            // follow number them (from 0).
            prompter["word"] = controller.script == nil ? .null
                : stage.renderer.wordIndex(atOffset: controller.engine.offset(at: time)).map { .int($0) } ?? .null
            // The same place for another rig's layout, with the time and the text's hash.
            // A jump's glide counts as arrived: a follower glides there itself.
            if let layout = stage.renderer.readingText?.layout, let hash = controller.scriptHash {
                let anchor = ReadingAnchor(layout: layout, offset: controller.engine.positionIgnoringGlide(at: time),
                                           motion: controller.engine.motion(at: time))
                // The wall time of `time`, not of this line: a status built late (a busy
                // loop, a slow debug build) would otherwise place the lead behind itself by
                // the delay's worth of its motion, and every follower would chase that.
                let wallTime = stage.wallClock().timeIntervalSince1970 - (stage.now() - time)
                prompter["anchor"] = anchor.json(wallTime: wallTime, scriptHash: hash)
            } else {
                prompter["anchor"] = .null
            }
            prompter.merge(prompting(at: time, controller: controller)) { $1 }
            fields["prompter"] = .object(prompter)
        }
        fields["clips"] = stage.clips.status
        fields["recording"] = stage.takes.status
        fields["follow"] = stage.follow.status
        fields["follow_rig"] = stage.followerRig?.status ?? .null
        return .object(fields)
    }

    /// The timers' fields of the prompter object.
    private func prompting(at time: Double, controller: PrompterController) -> [String: JSONValue] {
        var fields = stage.timers(at: time).json
        fields["end_of_script"] = .string(controller.settings.endOfScript.rawValue)
        fields["loops"] = .int(controller.engine.loops)
        return fields
    }
}
