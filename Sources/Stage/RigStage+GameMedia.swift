import Game

/// The end of a game session on the console and the socket: End game asks whether
/// this game's media go too (clips and derived exports; results and scores stay, as
/// retention keeps them), and an ended game's media can still be deleted. A file a
/// replay or an export holds is removed by the kiosk when it is let go.
extension RigStage {
    /// The end-of-game dialog's answer: `confirm` deletes (and ends, from End game),
    /// `keep` ends and keeps the media.
    func answerGameDialog(_ answer: String) throws(GameControlError) {
        defer { console.gameChanged() }
        switch (answer, game.session?.ended == true) {
        case ("confirm", false): gameMediaDeleted(try game.endGame(deletingMedia: true))
        case ("confirm", true): gameMediaDeleted(try game.deleteGameMedia())
        case ("keep", false):
            try game.endGame(deletingMedia: false)
            game.notice = "The game has ended; its media are kept (Clips, or rig ctl game delete-media)."
        default: return
        }
    }

    /// After a game's media went: the host's notice, the journal, and the clips read again
    /// (the kiosk lists them without video from now on).
    func gameMediaDeleted(_ deletion: GameMediaDeletion?) {
        guard let deletion else { return }
        game.notice = deletion.description
        KioskLog.notice("game \(game.sessionID): \(deletion.description)")
        clips.refresh()
        console.gameChanged()
    }
}
