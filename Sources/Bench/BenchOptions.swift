import Kiosk
import Stage

/// The arguments of `rig bench`.
///
///     rig bench [--json] [--quick] [--no-peers]
///     rig bench --case NAME [--frames N]     one case, for callgrind (bench/callgrind.sh)
///
/// Case names: `floor:WxH`, `compose:WxH:SIZE[:TRANSFORM[:SPEED]]` (TRANSFORM is
/// `identity` or mirror/flip/rot90/rot180/rot270 joined by `+`; SPEED in px/s),
/// `layout:SIZE`, `camera`.
struct BenchOptions: Equatable, Sendable {
    var json = false
    var quick = false
    /// rig's own cases only: the Pango and GStreamer peers are reported as not run.
    var noPeers = false
    var caseName: BenchCase?
    var frames: Int?

    enum ParseError: Error, Equatable, CustomStringConvertible {
        case unknownArgument(String)
        case missingValue(String)
        case badFrames(String)
        case badCase(String, String)
        case framesWithoutCase

        var description: String {
            switch self {
            case let .unknownArgument(a): "rig bench: unknown argument '\(a)' (try: --json, --quick, --no-peers, --case NAME, --frames N)"
            case let .missingValue(flag): "rig bench: \(flag) needs a value"
            case let .badFrames(v): "rig bench: --frames wants a whole number from 1 to 100000, got '\(v)'"
            case let .badCase(name, why): "rig bench: bad case '\(name)': \(why)"
            case .framesWithoutCase: "rig bench: --frames only applies with --case"
            }
        }
    }

    static func parse(_ arguments: [String]) throws(ParseError) -> BenchOptions {
        var options = BenchOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": options.json = true
            case "--quick": options.quick = true
            case "--no-peers": options.noPeers = true
            case "--case":
                guard let value = rest.popFirst() else { throw .missingValue("--case") }
                options.caseName = try BenchCase.parse(value)
            case "--frames":
                guard let value = rest.popFirst() else { throw .missingValue("--frames") }
                guard let n = Int(value), (1...100_000).contains(n) else { throw .badFrames(value) }
                options.frames = n
            default: throw .unknownArgument(argument)
            }
        }
        if options.frames != nil && options.caseName == nil { throw .framesWithoutCase }
        return options
    }
}
