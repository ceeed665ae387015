import Prompter

/// What the prompter scenes draw from: the app state shared by both displays.
struct PrompterSceneState: Sendable {
    var scriptTitle: String
    var engine: PrompterEngine
    var settings: ReadingSettings
    /// Fraction of the text viewport from the text's top where the reading line sits.
    var markerPosition: Double = 1.0 / 3.0
    /// The talent paused with a tap on the outer display (shows the paused badge).
    var pausedByTap = false
    /// What the operator must know about (bad rig.toml, missing devices): the banner.
    var problems: [String] = []
    /// The outer display shows content (available and enabled).
    var outerPresenting = true
}
