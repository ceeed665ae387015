import Foundation
import Testing
@testable import Bench
@testable import Kiosk
@testable import Stage

@Suite struct BenchOptionsTests {
    /// `rig bench` is in the `rig` command's table, next to the appliance's commands.
    @Test func benchHasHelpInTheRigCommandsTable() {
        let cli = CLI(commands: CLI.applianceCommands(tools: [CommandEntry(BenchCommand.self)]), hidden: [])
        #expect(cli.commands.map(\.name).contains("bench"))
        #expect(cli.main(["rig", "bench", "--help"]) == 0)
        #expect(BenchCommand.help.contains("rig bench"))
    }

    @Test func flags() throws {
        let options = try BenchOptions.parse(["--quick", "--json"])
        #expect(options.json && options.quick && options.caseName == nil && !options.noPeers)
        #expect(try BenchOptions.parse(["--no-peers"]).noPeers)
    }

    @Test func composeCaseWithTransform() throws {
        let options = try BenchOptions.parse(["--case", "compose:3840x2160:120:mirror+rot270", "--frames", "7"])
        #expect(options.caseName == .compose(.uhd, sizePx: 120, .init(mirror: true, flip: false, rotation: 270)))
        #expect(options.frames == 7)
    }

    @Test func composeCaseDefaultsToUprightText() throws {
        #expect(try BenchCase.parse("compose:1920x1080:60") == .compose(.fullHD, sizePx: 60, .identity, speed: 180))
        #expect(try BenchCase.parse("compose:1920x1080:60:identity:110")
                == .compose(.fullHD, sizePx: 60, .identity, speed: 110))
        #expect(try BenchCase.parse("floor:1920x1080") == .floor(.fullHD))
        #expect(try BenchCase.parse("floor:1920x1080:uncached") == .floor(.fullHD, uncached: true))
        #expect(throws: BenchOptions.ParseError.self) { try BenchCase.parse("floor:1920x1080:cold") }
        #expect(try BenchCase.parse("layout:20") == .layout(sizePx: 20))
        #expect(try BenchCase.parse("camera") == .camera)
    }

    /// The running kiosk's smoothness at another size and turned, as the compose cases.
    @Test func kioskSmoothnessTakesADisplayAndATransform() throws {
        #expect(try BenchCase.parse("kiosk-smoothness") == .kioskSmoothness(.fullHD, .identity))
        #expect(try BenchCase.parse("kiosk-smoothness:3840x2160") == .kioskSmoothness(.uhd, .identity))
        #expect(try BenchCase.parse("kiosk-smoothness:3840x2160:mirror+rot90")
                == .kioskSmoothness(.uhd, .init(mirror: true, flip: false, rotation: 90)))
        #expect(throws: BenchOptions.ParseError.self) { try BenchCase.parse("kiosk-smoothness:1920x1080:rot45") }
    }

    @Test func transformNamesRoundTrip() throws {
        for transform in BenchReport.Transform.all {
            #expect(try BenchCase.parse("compose:1920x1080:60:\(transform)") == .compose(.fullHD, sizePx: 60, transform))
        }
    }

    @Test func badInputIsAnErrorThatNamesIt() {
        #expect(throws: BenchOptions.ParseError.unknownArgument("--fast")) { try BenchOptions.parse(["--fast"]) }
        #expect(throws: BenchOptions.ParseError.missingValue("--case")) { try BenchOptions.parse(["--case"]) }
        #expect(throws: BenchOptions.ParseError.badFrames("0")) {
            try BenchOptions.parse(["--case", "camera", "--frames", "0"])
        }
        #expect(throws: BenchOptions.ParseError.framesWithoutCase) { try BenchOptions.parse(["--frames", "5"]) }
        #expect(throws: (any Error).self) { try BenchCase.parse("compose:1920x1080:60:spin") }
        #expect(throws: (any Error).self) { try BenchCase.parse("compose:19201080:60") }
        #expect(throws: (any Error).self) { try BenchCase.parse("compose:1920x1080:60:identity:0") }
        #expect(throws: (any Error).self) { try BenchCase.parse("compose:1920x1080:60:identity:fast") }
        #expect(throws: (any Error).self) { try BenchCase.parse("layout:0") }
    }

    @Test func peerOutputThatIsNotJSONIsAFailureWithTheStart() {
        let result = PeerRunner.parseObject(Data("Traceback (most recent call last)".utf8))
        guard case let .failure(error) = result else {
            Issue.record("parsed garbage as JSON")
            return
        }
        #expect(error.why.contains("Traceback"))
        #expect(PeerRunner.lastLine(of: Data("a\nValueError: Namespace Gst not available\n\n".utf8))
                == "ValueError: Namespace Gst not available")
    }

    @Test func pangoPeerJSONIsRead() throws {
        let text = #"{"pango_version":"1.50.12","cairo_version":"1.16.0","layout":[{"display":"1920x1080","size_px":60,"lines":1688,"median_ms":82,"p99_ms":84.5,"samples":3}],"cases":[{"mode":"good","display":"1920x1080","size_px":60,"lines":1688,"median_ms":0.37,"p99_ms":0.44,"samples":30}]}"#
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        guard case let .ran(version, layout, cases, samples) = PeerFigures.pango(object) else {
            Issue.record("a valid peer report was read as unavailable")
            return
        }
        #expect(version == "Pango 1.50.12, cairo 1.16.0")
        #expect(layout.first?.result.medianMs == 82)
        #expect(cases.first?.result.summary == SampleSummary(medianMs: 0.37, p99Ms: 0.44, samples: 30))
        #expect(samples.isEmpty)
        #expect(PeerFigures.measurement(["median_ms": 1.0]) == .unavailable("the peer reported no samples"))
    }
}
