import Foundation

extension GameSession {
    /// Every unmet condition for Send, in the order the dashboard lists them. Empty
    /// means Send will start an attempt.
    public var sendBlockers: [SendBlocker] {
        if ended { return [.gameEnded] }
        var blockers: [SendBlocker] = []
        switch phase {
        case .ready: break
        case .review: blockers.append(.unresolvedReview)
        default: blockers.append(.phase(phase))
        }
        var card: ActionCard?
        if let selection {
            card = catalog.card(id: selection.cardID).flatMap { settings.offers($0) ? $0 : nil }
            if card == nil { blockers.append(.actionNotAvailable(selection.cardID)) }
        } else {
            blockers.append(.noActionSelected)
        }
        if recordsCurrentPlayer && !consent.hasAgreed(currentPlayer) {
            blockers.append(.noConsent(player: currentPlayer))
        }
        blockers += rig.sendBlockers(recording: recordsCurrentPlayer, visual: settings.mode == .visual)
        if recordsCurrentPlayer, let card, let selection {
            let length = settings.longestRecording(of: card, with: selection.parameters)
            if length > RecordingTimeline.bound { blockers.append(.recordingTooLong(seconds: length)) }
        }
        return blockers
    }

    /// Freezes the snapshot and starts the attempt: speech is synthesized first, so its
    /// duration is known before the recording starts.
    mutating func send(at now: Double) throws(GameRefusal) -> [GameEffect] {
        let blockers = sendBlockers
        guard blockers.isEmpty, let selection, let card = catalog.card(id: selection.cardID) else {
            throw .notReady(blockers)
        }
        let parameters = try card.resolve(selection.parameters)
        let rule: ChallengeRule
        let source: RuleSource
        switch selection.rule {
        case .host(let chosen):
            rule = chosen
            source = .host
        case .draw:
            rule = random.drawRule()
            source = .drawn
        }
        var played = settings
        played.recording = recordsCurrentPlayer
        let snapshot = ChallengeSnapshot.freeze(
            card: card, parameters: parameters, rule: rule, source: source, player: currentPlayer,
            host: setup.host, settings: played, turn: turn, challenge: challengesPlayedThisTurn + 1)
        lastGeneration += 1
        var record = AttemptRecord(id: (attempts.last?.id ?? 0) + 1, generation: lastGeneration,
                                   snapshot: snapshot, media: snapshot.recording ? .recording : .none)
        record.timing.sentAt = now
        attempts.append(record)
        active = ActiveAttempt(index: attempts.count - 1, generation: lastGeneration, snapshot: snapshot,
                               selection: selection, cameraID: snapshot.recording ? rig.cameraID : nil)
        retrySelection = nil
        phase = .preparing
        return [.synthesizeSpeech(generation: lastGeneration, text: snapshot.instruction,
                                  wordsPerMinute: snapshot.speech.wordsPerMinute),
                .save]
    }
}
