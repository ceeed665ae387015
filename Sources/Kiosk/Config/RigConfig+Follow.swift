extension RigConfig {
    /// `[follow]`: voice follow (README, "Voice follow").
    struct Follow: Equatable, Sendable {
        /// Start with voice follow on: it follows the first script opened.
        var enabled = false
        /// The language the talent reads in (a BCP 47 tag such as "en" or "en-GB"). Only
        /// English has a speech model; another is refused with the reason, not followed.
        var language = "en"
    }
}

/// The rig.toml keys of `[follow]`.
enum FollowConfigKeys {
    static var keys: [ConfigKey] {
        [ConfigSchema.bool("follow.enabled", \.follow.enabled), ConfigSchema.string("follow.language", \.follow.language)]
    }
}
