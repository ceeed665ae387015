import Foundation
import Prompter

/// `rig ctl marker ...` and the markers of `rig ctl status`.
struct MarkerRequests {
    let controller: PrompterController

    /// `marker jump|set|clear|list`.
    func request(action: String, to: String?, at time: Double) -> ControlReply {
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
