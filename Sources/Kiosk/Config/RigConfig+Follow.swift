extension RigConfig {
    /// `[follow]`: voice follow (README, "Voice follow").
    struct Follow: Equatable, Sendable {
        /// Start with voice follow on: it follows the first script opened.
        var enabled = false
    }
}

/// The rig.toml keys of `[follow]`.
enum FollowConfigKeys {
    static var keys: [ConfigKey] {
        [ConfigSchema.bool("follow.enabled", \.follow.enabled)]
    }
}
