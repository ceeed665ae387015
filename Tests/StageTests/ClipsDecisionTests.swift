import Foundation
import JSON
import Prompter
import Testing
@testable import Stage

/// The Clips screen's controls decide what the console changes and return it: checked
/// here on a console state of the test's own, with no console carrying it out.
struct ClipsDecisionTests {
    @Test func nextAndPreviousWalkTheListAndStopAtItsEnds() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-clips-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let prompter = PrompterController(library: nil, stateDirectory: root, defaults: .standard, wordsPerMinute: 150)
        let clips = ClipsController(console: ConsoleController(controller: prompter), now: { 0 })
        clips.store = ThreeClips()
        clips.refresh()
        var state = ConsoleState()
        func carryOut(_ id: String) {
            guard case let .change(body) = clips.widget(id, state: state, back: .leave) else {
                Issue.record("\(id) changes nothing")
                return
            }
            body(&state)
        }
        carryOut("clips:next")
        #expect(state.selectedClip == "a" && state.focus == "clip:a")
        carryOut("clips:next")
        carryOut("clips:next")
        carryOut("clips:next")
        #expect(state.selectedClip == "c" && state.focus == "clip:c")
        carryOut("clips:previous")
        #expect(state.selectedClip == "b" && state.focus == "clip:b")
        carryOut("clips:delete")
        #expect(state.dialog == .confirmDeleteClip(id: "b", title: "B") && state.focus == "dialog:cancel")
        // Escape with no replay open leaves the screen: where to is the caller's.
        guard case .leave = clips.widget("clips:escape", state: state, back: .leave) else {
            Issue.record("Escape does not leave")
            return
        }
    }
}

/// Three clips, a to c, and nothing to delete or export.
private final class ThreeClips: ClipStorePort {
    func listing(exporting: String?, currentGame: String?) -> ClipsInput {
        ClipsInput(clips: ["a", "b", "c"].map { ClipSummary(id: $0, kind: "prompter", title: $0.uppercased(), recordedAt: Date()) })
    }
    var listJSON: JSONValue { [] }
    var exportFolder: String { "" }
    func delete(_ id: String) -> Result<Void, ClipRefusal> { .failure(ClipRefusal("not here")) }
    func export(_ id: String, to folder: String) -> Result<JSONValue, ClipRefusal> { .failure(ClipRefusal("not here")) }
    func retryExport(_ id: String) -> Result<JSONValue, ClipRefusal> { .failure(ClipRefusal("not here")) }
    func eject(_ name: String) -> Result<JSONValue, ClipRefusal> { .failure(ClipRefusal("not here")) }
    func refusal(replaying id: String) -> ClipRefusal { ClipRefusal("no clip \(id)") }
}
