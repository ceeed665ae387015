import Prompter

extension RigConfig {
    /// `[follow]`: voice follow (README, "Voice follow").
    struct Follow: Equatable, Sendable {
        /// Start with voice follow on: it follows the first script opened.
        var enabled = false
        /// The language the talent reads in (a BCP 47 tag such as "en" or "en-GB"). Only
        /// English has a speech model; another is refused with the reason, not followed.
        var language = "en"
        /// Lines the reading line runs ahead of the voice (negative: behind) when follow
        /// starts; the speed keys move it by half a line while follow steers.
        var lead = 0.0
    }
}

/// The rig.toml keys of `[follow]`.
enum FollowConfigKeys {
    static var keys: [ConfigKey] {
        [ConfigSchema.bool("follow.enabled", \.follow.enabled), ConfigSchema.string("follow.language", \.follow.language),
         ConfigSchema.double("follow.lead", -FollowDriver.maxLead...FollowDriver.maxLead, \.follow.lead)]
    }
}
