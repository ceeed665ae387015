import Stage

/// `[follow_rig]`: this rig follows a lead rig's reading line (README, "Several rigs,
/// one script").
struct FollowRigConfig: Equatable, Sendable {
    /// The lead's remote, "http://ADDRESS:PORT" (a numeric address, as `[remote] bind`:
    /// a rig at boot may have no DNS); empty leads itself.
    var leader = ""
    /// One of the lead's `[remote.api_keys]`.
    var key = ""
    /// "pause" (ease out and hold the place) or "continue" (at the lead's last speed).
    var whenLost = FollowerRig.WhenLost.pause.rawValue

    /// The stage's settings; nil when this rig leads itself.
    var stageSettings: FollowerRig.Settings? {
        guard !leader.isEmpty else { return nil }
        return FollowerRig.Settings(leader: leader, whenLost: FollowerRig.WhenLost(rawValue: whenLost) ?? .pause)
    }

    static var keys: [ConfigKey] {
        [ConfigKey(path: "follow_rig.leader") { config, value in
            guard case let .scalar(.string(text)) = value else {
                return "follow_rig.leader must be the lead's remote such as \"http://192.168.1.20:8080\", found \(value.kindName)"
            }
            guard text.isEmpty || LeadLink.authority(text).flatMap(SocketAddress.init(parsing:)) != nil else {
                return "follow_rig.leader must be http:// with the lead's address and port, such as \"http://192.168.1.20:8080\" "
                    + "(a numeric address, not a name), found \"\(text.prefix(80))\""
            }
            config.followRig.leader = text
            return nil
         },
         ConfigKey(path: "follow_rig.key") { config, value in
            guard case let .scalar(.string(text)) = value else { return "follow_rig.key must be a string, found \(value.kindName)" }
            guard text.isEmpty || (text.count >= 32 && text.allSatisfy { $0.isASCII && !$0.isWhitespace }) else {
                // Never the key itself in a message: it is a credential.
                return "follow_rig.key must be one of the lead's [remote.api_keys] (32 or more characters, no spaces)"
            }
            config.followRig.key = text
            return nil
         },
         ConfigSchema.oneOf("follow_rig.when_lost", FollowerRig.WhenLost.allCases.map(\.rawValue), \.followRig.whenLost)]
    }
}
