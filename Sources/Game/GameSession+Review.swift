import Foundation

extension GameSession {
    /// The host's verdict on the attempt awaiting review.
    mutating func judge(_ verdict: Verdict) -> [GameEffect] {
        guard let index = attempts.indices.last else { return [] }
        attempts[index].verdicts.append(VerdictChange(verdict: verdict, at: wallClock(), by: .host))
        phase = .complete
        return [.save]
    }

    /// Appends a corrected verdict to a judged attempt's history. The scoreboard follows
    /// the latest one, so a correction replaces the attempt's effect. The turn order does
    /// not move back: a correction in a finished turn changes its score, not who plays.
    mutating func correct(_ id: Int, _ verdict: Verdict) throws(GameRefusal) -> [GameEffect] {
        guard let index = attempts.firstIndex(where: { $0.id == id }) else { throw .unknownAttempt(id) }
        let record = attempts[index]
        let awaitingReview = phase == .review && index == attempts.count - 1
        guard !awaitingReview, record.interruption == nil, !record.verdicts.isEmpty else {
            throw .notCorrectable(attempt: id)
        }
        attempts[index].verdicts.append(VerdictChange(verdict: verdict, at: wallClock(), by: .host))
        return [.save]
    }

    /// Deletes an attempt's video; its verdict history and score stay.
    mutating func deleteMedia(_ id: Int) throws(GameRefusal) -> [GameEffect] {
        guard let index = attempts.firstIndex(where: { $0.id == id }) else { throw .unknownAttempt(id) }
        guard case .saved(let file) = attempts[index].media else { throw .noMedia(attempt: id) }
        attempts[index].media = .deleted
        return [.deleteMedia(attempt: id, file: file), .save]
    }

    /// Deletes the video of every attempt that still has one (the host's "delete this
    /// game's media" at the end); verdicts, timings and scores stay. Nothing to delete
    /// is not an error: the answer is simply no effect but the save.
    mutating func deleteGameMedia() -> [GameEffect] {
        var effects: [GameEffect] = []
        for index in attempts.indices {
            guard case .saved(let file) = attempts[index].media else { continue }
            attempts[index].media = .deleted
            effects.append(.deleteMedia(attempt: attempts[index].id, file: file))
        }
        return effects + [.save]
    }

    /// The attempts whose video is still on the rig, with the file of each.
    public var savedMedia: [(attempt: Int, file: String)] {
        attempts.compactMap { record in
            guard case .saved(let file) = record.media else { return nil }
            return (record.id, file)
        }
    }

    /// After a verdict: back to ready, and to the next player once this turn's scored
    /// challenges are used (a void used none).
    mutating func next() -> [GameEffect] {
        if turnIsOver { turn += 1 }
        phase = .ready
        return [.save]
    }
}
