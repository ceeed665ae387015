import Prompter

/// What the prompter scenes draw from: the app state shared by both displays.
package struct PrompterSceneState: Sendable {
    package var scriptTitle: String
    package var engine: PrompterEngine
    package var settings: ReadingSettings
    /// Fraction of the text viewport from the text's top where the reading line sits.
    package var markerPosition: Double = 1.0 / 3.0
    /// The talent paused with a tap on the outer display (shows the paused badge).
    package var pausedByTap = false
    /// What the operator must know about (bad rig.toml, missing devices): the banner.
    package var problems: [String] = []
    /// The outer display shows content (available and enabled).
    package var outerShowsContent = true
}
