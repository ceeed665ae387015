import Foundation
import Stage
import Testing
@testable import Kiosk

/// The URL and OSC shapes of the prompter's newer requests reach `ControlRequest.parse`
/// as the socket's JSON does (markers, words per minute, finish in, follow).
@Suite struct RemoteCommandMapTests {
    private func parsed(_ command: String, _ arguments: [String]) -> ControlRequest? {
        let json = RemoteCommandMap.request(command: command, arguments: arguments.map { .string($0) }, fields: [:])
        guard case let .success(request) = ControlRequest.parse(Data(json.serialized.utf8)) else { return nil }
        return request
    }

    @Test func markersWordsPerMinuteFinishAndFollowFromPaths() {
        #expect(parsed("marker", ["next"]) == .marker(action: "jump", to: "next"))
        #expect(parsed("marker", ["3"]) == .marker(action: "jump", to: "3"))
        #expect(parsed("wpm", ["150"]) == .wordsPerMinute(150))
        #expect(parsed("finish", ["4:30"]) == .finish("4:30"))
        #expect(parsed("follow", ["on"]) == .follow(true))
        #expect(parsed("follow", ["off"]) == .follow(false))
    }
}
