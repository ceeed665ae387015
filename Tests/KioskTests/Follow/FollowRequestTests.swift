import Foundation
import Testing
@testable import Kiosk
@testable import Stage

/// `rig ctl follow on|off` and `rig ctl listen FILE.wav` on the command line and the wire.
@Suite struct FollowRequestTests {
    func ctl(_ words: [String]) throws(CLIError) -> ControlRequest {
        var arguments = Arguments(words)
        return try CtlCommand.parseRequest(&arguments, search: nil)
    }

    @Test func ctlMakesTheRequestsAndTheWireCarriesThem() throws {
        #expect(try ctl(["follow", "on"]) == .follow(true))
        #expect(try ctl(["follow", "off"]) == .follow(false))
        #expect(throws: CLIError.self) { try ctl(["follow", "maybe"]) }
        #expect(try ctl(["listen", "/tmp/read.wav"]) == .listen("/tmp/read.wav"))
        // A relative path is made absolute: the kiosk runs in another folder.
        #expect(try ctl(["listen", "read.wav"]) == .listen(FileManager.default.currentDirectoryPath + "/read.wav"))
        #expect(throws: CLIError.self) { try ctl(["listen"]) }
        for request in [ControlRequest.follow(true), .follow(false), .listen("/tmp/read.wav")] {
            let line = Data(request.json.serialized.utf8)
            #expect(try ControlRequest.parse(line).get() == request)
        }
    }

    @Test func badRequestsSayWhatIsMissing() {
        guard case let .failure(noOn) = ControlRequest.parse(Data(#"{"cmd":"follow"}"#.utf8)) else { Issue.record("accepted"); return }
        #expect(noOn.description.contains("\"on\""))
        guard case let .failure(noPath) = ControlRequest.parse(Data(#"{"cmd":"listen"}"#.utf8)) else { Issue.record("accepted"); return }
        #expect(noPath.description.contains("\"path\""))
    }
}
