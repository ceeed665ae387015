import Foundation
import Prompter
import Render

/// The professional prompter's timed parts the stage drives: markers placed in the
/// outer layout, the end of the script (loop, blank), and the countdown's frames.
extension RigStage {
    /// Gives the controller the outer layout's maps between text and scroll offsets.
    func wireMarkers() {
        let renderer = self.renderer
        controller.markerLayout = MarkerLayout(
            offsetOfText: { [weak renderer] offset in renderer?.readingText?.layout?.y(ofTextOffset: offset) ?? 0 },
            textAtOffset: { [weak renderer] y in
                guard let layout = renderer?.readingText?.layout else { return 0 }
                return layout.line(at: layout.lineIndex(atY: y))?.textRange.lowerBound ?? 0
            },
            wordsPerPixel: { [weak renderer, weak controller] in
                guard let layout = renderer?.readingText?.layout else { return nil }
                // The words the talent says: a direction is on the glass but not read.
                let words = controller?.script?.wordCount ?? layout.wordCount ?? 0
                let height = layout.totalHeight
                return height > 0 && words > 0 ? Double(words) / height : nil
            },
            lineIndex: { [weak renderer] y in renderer?.readingText?.layout?.lineIndex(atY: y) })
    }

    /// Schedules what the end of the script does at the moment it is reached: a loop
    /// goes round on time, "blank" blanks the talent's display, and a countdown's end
    /// is a state change (the transport starts moving). Called on every state change;
    /// a timer of an older timeline finds nothing to do.
    func scheduleTimedTransport() {
        let time = now()
        if let begin = controller.engine.countdownEnd, begin > time {
            schedule(begin) { [weak self] in self?.stateChanged() }
        }
        guard let end = controller.engine.endTime(), end.isFinite else { return }
        schedule(max(time, end)) { [weak self] in
            guard let self else { return }
            let at = self.now()
            guard self.controller.engine.state == .playing, self.controller.engine.endTime().map({ $0 <= at }) ?? false
            else { return }
            self.controller.reachedEnd(at: at)
        }
    }
}

extension RigStage {
    /// `rig ctl marker ...`.
    func marker(action: String, to: String?, at time: Double) -> ControlReply {
        do {
            switch action {
            case "jump":
                let target = MarkerTarget(to ?? "next")
                let marker = try controller.jump(to: target, at: time)
                return .success(["marker": marker.map { markerJSON($0) } ?? ["name": "start", "offset": 0]])
            case "set":
                let marker = try controller.setMarker(at: time)
                return .success(["marker": markerJSON(marker)])
            case "clear":
                try controller.clearSetMarkers()
                return .success(["markers": markersJSON])
            default:
                return .success(["markers": markersJSON])
            }
        } catch {
            return .failure(error.description)
        }
    }

    /// The open script's markers with their places and the reading time to each from
    /// the top at the current speed (`rig ctl status`, `rig ctl marker list`).
    var markersJSON: JSONValue {
        .array(controller.markers.map(markerJSON))
    }

    func markerJSON(_ marker: PlacedMarker) -> JSONValue {
        [
            "number": .int(marker.number),
            "name": .optional(marker.name),
            "label": .string(marker.label),
            "kind": .string(marker.isOperator ? "set" : "named"),
            "offset": .number((marker.offset * 10).rounded() / 10),
            "time": .number((marker.offset / Double(controller.engine.speed) * 10).rounded() / 10),
            "time_label": .string(ReadingStopwatch.clock(marker.offset / Double(controller.engine.speed))),
        ]
    }
}

extension RigStage {
    package func timers(at time: Double) -> PrompterTimers {
        PrompterTimers(controller: controller, elapsed: stopwatch.elapsed(at: time), at: time, wallClock: wallClock())
    }

    /// The timers' fields of `rig ctl status`'s prompter object.
    func prompting(at time: Double) -> [String: JSONValue] {
        var fields = timers(at: time).json
        fields["end_of_script"] = .string(controller.settings.endOfScript.rawValue)
        fields["loops"] = .int(controller.engine.loops)
        return fields
    }
}

extension RigStage {
    /// The console's wall clock and timers tick once a second, playing or not.
    func tickConsoleClock() {
        let next = (now() + 1).rounded(.down)
        schedule(next) { [weak self] in
            guard let self else { return }
            if self.console.state.screen == .prompter { self.frameWanted(.inner) }
            self.tickConsoleClock()
        }
    }
}
