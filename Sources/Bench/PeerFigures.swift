import Kiosk
import Stage

/// Reading the peers' JSON (bench/README.md, "pango peer" and "gstreamer peer").
enum PeerFigures {
    static func measurement(_ object: [String: Any]) -> BenchMeasurement {
        guard let median = number(object["median_ms"]), let p99 = number(object["p99_ms"]),
              let samples = object["samples"] as? Int, samples > 0 else {
            return .unavailable("the peer reported no samples")
        }
        return .measured(SampleSummary(medianMs: median, p99Ms: p99, samples: samples))
    }

    static func pango(_ object: [String: Any]) -> BenchReport.PangoPeer {
        guard let cases = object["cases"] as? [[String: Any]],
              let layouts = object["layout"] as? [[String: Any]] else {
            return .unavailable("the Pango peer's JSON has no cases or layout")
        }
        let version = (object["pango_version"] as? String).map { "Pango \($0)" } ?? "Pango"
        let cairo = (object["cairo_version"] as? String).map { ", cairo \($0)" } ?? ""
        let samples = (object["samples"] as? [[String: Any]]) ?? []
        return .ran(
            version: version + cairo,
            layout: layouts.map { l in
                .init(display: l["display"] as? String ?? "?", sizePx: l["size_px"] as? Int ?? 0,
                      lines: l["lines"] as? Int, result: measurement(l))
            },
            cases: cases.map { c in
                .init(mode: c["mode"] as? String ?? "?", display: c["display"] as? String ?? "?",
                      sizePx: c["size_px"] as? Int ?? 0, lines: c["lines"] as? Int, result: measurement(c))
            },
            samples: samples.map { s in
                .init(file: s["file"] as? String ?? "?", lines: s["lines"] as? Int, result: measurement(s))
            })
    }

    /// JSONSerialization gives integers for whole numbers; accept both.
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let d as Double: d
        case let i as Int: Double(i)
        default: nil
        }
    }
}
