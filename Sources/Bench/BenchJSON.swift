import Kiosk
import Stage

/// A JSON value whose objects keep their keys in the order written, so `rig bench
/// --json` prints the documented schema in the documented order on every run.
indirect enum BenchJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case array([BenchJSON])
    case object([(String, BenchJSON)])

    static func == (lhs: BenchJSON, rhs: BenchJSON) -> Bool { lhs.rendered() == rhs.rendered() }

    /// A number, or null when there is none (a missing ratio, a non-finite value).
    static func number(_ value: Double?) -> BenchJSON {
        guard let value, value.isFinite else { return .null }
        return .number(value)
    }

    func rendered() -> String {
        var out = ""
        render(into: &out)
        return out
    }

    private func render(into out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(value): out += value ? "true" : "false"
        case let .int(value): out += String(value)
        case let .number(value):
            // Microsecond resolution is all a frame time can claim; fewer digits keep
            // the output readable and stable to compare.
            out += value.isFinite ? String((value * 1e4).rounded() / 1e4) : "null"
        case let .string(value): out += JSONValue.quote(value)
        case let .array(values):
            out += "["
            for (i, value) in values.enumerated() {
                if i > 0 { out += "," }
                value.render(into: &out)
            }
            out += "]"
        case let .object(pairs):
            out += "{"
            for (i, (key, value)) in pairs.enumerated() {
                if i > 0 { out += "," }
                out += JSONValue.quote(key)
                out += ":"
                value.render(into: &out)
            }
            out += "}"
        }
    }
}

extension BenchMeasurement {
    /// `{"status":"ok","median_ms":…,"p99_ms":…,"samples":…}` or
    /// `{"status":"unavailable","reason":"…"}`.
    var json: [(String, BenchJSON)] {
        switch self {
        case let .measured(s):
            [("status", .string("ok")), ("median_ms", .number(s.medianMs)),
             ("p99_ms", .number(s.p99Ms)), ("samples", .int(s.samples))]
        case let .unavailable(reason):
            [("status", .string("unavailable")), ("reason", .string(reason))]
        }
    }
}
