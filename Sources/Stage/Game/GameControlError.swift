import Game

/// Why the stage refused a game request. Nothing changed.
package enum GameControlError: Error, Equatable, CustomStringConvertible {
    case noCatalog(String)
    case noGame
    case attemptRunning
    case notReady([String])
    case refused(GameRefusal)
    case badRequest(String)

    package var description: String {
        switch self {
        case .noCatalog(let reason): "The game cannot start: \(reason)"
        case .noGame: "No game is set up; give the players first (rig ctl game setup players=Ann,Bo)"
        case .attemptRunning: "An attempt is running; stop it first"
        case .notReady(let reasons): "Not ready to send: " + reasons.joined(separator: "; ")
        case .refused(let refusal): refusal.description
        case .badRequest(let message): message
        }
    }
}
