@testable import Stage

/// A stage output whose wishes go to closures a test sets.
final class ClosureStageOutput: StageOutput {
    var frame: (DisplayRole) -> Void = { _ in }
    var prepare: (DisplayRole, Double) -> Void = { _, _ in }

    init(frame: @escaping (DisplayRole) -> Void = { _ in }) { self.frame = frame }

    func frameWanted(_ role: DisplayRole) { frame(role) }
    func prepareFrame(_ role: DisplayRole, for time: Double) { prepare(role, time) }
}
