import Foundation

/// Points per player and per turn, computed from the attempts' latest verdicts, so a
/// correction replaces an attempt's effect and a void adds nothing.
public struct Scoreboard: Equatable, Sendable {
    public struct PlayerRow: Equatable, Sendable {
        public let player: String
        public let points: Int
        /// Attempts judged pass or fail.
        public let scored: Int
        public let voided: Int
    }

    public struct TurnRow: Equatable, Sendable {
        /// 0-based turn of the game.
        public let turn: Int
        public let player: String
        public let points: Int
        public let scored: Int
    }

    /// In roster order.
    public let players: [PlayerRow]
    /// Turns that have at least one attempt, in order.
    public let turns: [TurnRow]

    public init(roster: [String], attempts: [AttemptRecord]) {
        players = roster.map { name in
            let mine = attempts.filter { $0.snapshot.player == name }
            return PlayerRow(player: name, points: mine.reduce(0) { $0 + $1.points },
                             scored: mine.filter(\.isScored).count,
                             voided: mine.filter { $0.verdict == .void }.count)
        }
        let turnNumbers = Set(attempts.map(\.snapshot.turn)).sorted()
        turns = turnNumbers.map { turn in
            let mine = attempts.filter { $0.snapshot.turn == turn }
            return TurnRow(turn: turn, player: mine.first?.snapshot.player ?? "",
                           points: mine.reduce(0) { $0 + $1.points }, scored: mine.filter(\.isScored).count)
        }
    }

    public func points(of player: String) -> Int {
        players.first { $0.player == player }?.points ?? 0
    }
}
