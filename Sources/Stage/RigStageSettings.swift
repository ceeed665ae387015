import Foundation
import Game
import Prompter
import Render

extension RigStage {
    /// What the stage is told of the rig at start.
    package struct Settings {
        /// Where the reading line sits, as a fraction of the text viewport from its top.
        package var markerPosition: Double = ReadingMarker.defaultPosition
        /// The reading text's cache; nil: as the outer display's size asks
        /// (`TextCacheBudget.automatic`).
        package var cacheBudgetBytes: Int?
        /// The reading settings until the operator changes them (rig.toml's `[prompter]`).
        package var readingDefaults: ReadingSettings = .standard
        package var wordsPerMinute: Int = ReadingTime.defaultWordsPerMinute
        /// The outer display's size until it reports a mode.
        package var outerSize: PixelSize
        /// A camera is configured: the console shows its state and thumbnail.
        package var cameraEnabled = false
        /// The talent's preview is mirrored (rig.toml `camera.mirror`).
        package var cameraMirror = true
        /// Where settings and the reading position are kept; nil keeps nothing.
        package var stateDirectory: URL?
        /// The game's action cards (`share/game/actions.json`, installed under /usr/share).
        package var gameCatalog: URL = ActionCatalog.installedURL
        /// Seconds counted down before a prompter take records (`[recording] countdown`).
        package var takeCountdown = 3
        /// Voice follow on from the start (`[follow] enabled`), its language and lead.
        package var followAtStart = false
        package var followLanguage = "en"
        package var followLead = 0.0
        /// This rig follows a lead rig (`[follow_rig]`); nil leads itself.
        package var followRig: FollowerRig.Settings?

        package init(outerSize: PixelSize) { self.outerSize = outerSize }
    }
}
