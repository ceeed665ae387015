import Foundation

/// The records of the game's ended attempts, in order: what the host judges, corrects
/// and deletes the video of. A running attempt joins when it ends.
struct AttemptHistory: Equatable, Sendable {
    private(set) var records: [AttemptRecord]

    init(_ records: [AttemptRecord] = []) {
        self.records = records
    }

    /// The id the next attempt gets: 1-based, unique in the session.
    var nextID: Int { (records.last?.id ?? 0) + 1 }

    mutating func append(_ record: AttemptRecord) {
        records.append(record)
    }

    /// The host's verdict on the latest attempt (the one awaiting review). False when
    /// there is none.
    mutating func judgeLatest(_ verdict: Verdict, at wallTime: Double) -> Bool {
        guard let index = records.indices.last else { return false }
        records[index].verdicts.append(VerdictChange(verdict: verdict, at: wallTime, by: .host))
        return true
    }

    /// Appends a corrected verdict to a judged attempt's history. The scoreboard follows
    /// the latest one, so a correction replaces the attempt's effect. The latest attempt
    /// is not correctable while it awaits review: it is judged instead.
    mutating func correct(_ id: Int, _ verdict: Verdict, at wallTime: Double,
                          latestAwaitsReview: Bool) throws(GameRefusal) {
        guard let index = records.firstIndex(where: { $0.id == id }) else { throw .unknownAttempt(id) }
        let record = records[index]
        let awaitingReview = latestAwaitsReview && index == records.count - 1
        guard !awaitingReview, record.interruption == nil, !record.verdicts.isEmpty else {
            throw .notCorrectable(attempt: id)
        }
        records[index].verdicts.append(VerdictChange(verdict: verdict, at: wallTime, by: .host))
    }

    /// Deletes an attempt's video; its verdict history and score stay. Returns the
    /// deletion for the rig to carry out.
    mutating func deleteMedia(_ id: Int) throws(GameRefusal) -> GameEffect {
        guard let index = records.firstIndex(where: { $0.id == id }) else { throw .unknownAttempt(id) }
        guard case .saved(let file) = records[index].media else { throw .noMedia(attempt: id) }
        records[index].media = .deleted
        return .deleteMedia(attempt: id, file: file)
    }

    /// Deletes the video of every attempt that still has one; verdicts, timings and
    /// scores stay. Nothing to delete is no deletion, not an error.
    mutating func deleteAllMedia() -> [GameEffect] {
        var effects: [GameEffect] = []
        for index in records.indices {
            guard case .saved(let file) = records[index].media else { continue }
            records[index].media = .deleted
            effects.append(.deleteMedia(attempt: records[index].id, file: file))
        }
        return effects
    }

    /// The attempts whose video is still on the rig, with the file of each.
    var savedMedia: [(attempt: Int, file: String)] {
        records.compactMap { record in
            guard case .saved(let file) = record.media else { return nil }
            return (record.id, file)
        }
    }

    /// Scored challenges (pass or fail) of a turn.
    func scoredChallenges(inTurn turn: Int) -> Int {
        records.filter { $0.snapshot.turn == turn && $0.isScored }.count
    }
}
