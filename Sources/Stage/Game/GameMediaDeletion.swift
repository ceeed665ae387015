import Game

/// What "delete this game's media" did: the attempts whose video (and derived export)
/// went, and those in use by a replay or an export copy, whose files go as soon as
/// that ends (the lease is never broken). Results, timings and scores stay.
package struct GameMediaDeletion: Equatable, Sendable {
    package struct InUse: Equatable, Sendable {
        package var attempt: Int
        /// What holds it: "replay", "export".
        package var users: [String]
    }

    package var deleted: [Int] = []
    package var inUse: [InUse] = []

    /// The host's notice and the control reply's message.
    package var description: String {
        let count = deleted.count + inUse.count
        guard count > 0 else { return "This game has no media left to delete; its results stay." }
        var text = "Deleted the media of \(count) attempt\(count == 1 ? "" : "s") (results and scores stay)"
        if !inUse.isEmpty {
            let held = inUse.map { "#\($0.attempt) (\($0.users.joined(separator: ", ")))" }.joined(separator: ", ")
            text += "; in use now: \(held), removed as soon as that ends"
        }
        return text + "."
    }
}

extension GameController {
    /// Ends the game (as `HostCommand.endGame`), then deletes its media when asked.
    /// Refused, with nothing changed, where ending is not allowed.
    @discardableResult
    package func endGame(deletingMedia: Bool) throws(GameControlError) -> GameMediaDeletion? {
        try perform(.endGame)
        return deletingMedia ? try deleteGameMedia() : nil
    }

    /// Deletes the video of every attempt of this game that still has one. A file a
    /// replay or an export holds is removed by the recording port when it is let go.
    @discardableResult
    package func deleteGameMedia() throws(GameControlError) -> GameMediaDeletion {
        guard let session else { throw .noGame }
        var result = GameMediaDeletion()
        for (attempt, file) in session.savedMedia {
            let users = recording.mediaInUse(file)
            if users.isEmpty { result.deleted.append(attempt) } else { result.inUse.append(.init(attempt: attempt, users: users)) }
        }
        try perform(.deleteGameMedia)
        return result
    }

    /// Attempts of the game in play whose video is still on the rig.
    package var mediaCount: Int { session?.savedMedia.count ?? 0 }
}
